import { createHmac, timingSafeEqual } from 'node:crypto';

/** Where a page ended, bound to the query it belongs to (D15). */
export interface CursorPosition {
  score: number;
  parcelKey: string;
}

const sign = (secret: Buffer, payload: string) => createHmac('sha256', secret).update(payload).digest().subarray(0, 16);

/** An opaque, signed cursor: base64url(JSON) "." base64url(HMAC). */
export function encodeCursor(secret: Buffer, queryHash: string, position: CursorPosition): string {
  const payload = Buffer.from(JSON.stringify({ q: queryHash, s: position.score, k: position.parcelKey })).toString('base64url');
  return `${payload}.${sign(secret, payload).toString('base64url')}`;
}

/** The position of a cursor, or undefined when it is tampered with or belongs to another query. */
export function decodeCursor(secret: Buffer, queryHash: string, cursor: string): CursorPosition | undefined {
  const [payload, signature, extra] = cursor.split('.');
  if (!payload || !signature || extra !== undefined) return undefined;
  const expected = sign(secret, payload);
  const given = Buffer.from(signature, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  try {
    const decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { q: unknown; s: unknown; k: unknown };
    if (decoded.q !== queryHash || typeof decoded.s !== 'number' || typeof decoded.k !== 'string') return undefined;
    return { score: decoded.s, parcelKey: decoded.k };
  } catch {
    return undefined;
  }
}
