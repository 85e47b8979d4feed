import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** 32 random bytes, base64url (D4, D5). */
export const newToken = (): string => randomBytes(32).toString('base64url');

/** Only this digest is stored; a token is looked up by it, never by the token itself. */
export const digest = (token: string): Buffer => createHash('sha256').update(token, 'utf8').digest();

/**
 * Whether `token` is the secret whose digest is `secretDigest`. Digests have equal lengths, so the
 * comparison's time does not depend on where the values differ, nor on their lengths.
 */
export function matchesDigest(token: string, secretDigest: Buffer): boolean {
  return timingSafeEqual(digest(token), secretDigest);
}

export const normaliseEmail = (email: string): string => email.trim().toLowerCase();
