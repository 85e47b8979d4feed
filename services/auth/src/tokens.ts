import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url (D4, D5). */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Only this digest is stored; a token is looked up by it, never by the token itself. */
export const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/** Equal-length comparison whose time does not depend on where the values differ. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = digest(a);
  const right = digest(b);
  return timingSafeEqual(left, right);
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
