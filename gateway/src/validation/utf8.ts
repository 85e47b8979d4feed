import { isUtf8 } from 'node:buffer';
import { InvalidUtf8Body } from './request.js';

/**
 * Offset of the first byte that is not part of well-formed UTF-8 (RFC 3629: no overlong forms, no
 * surrogates, nothing above U+10FFFF), or -1. Only run once Buffer's own check has said the bytes
 * are not UTF-8, to say where.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let index = 0;
  while (index < bytes.length) {
    const lead = bytes[index]!;
    if (lead < 0x80) {
      index++;
      continue;
    }
    let size: number;
    let min: number;
    let max = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) [size, min] = [2, 0x80];
    else if (lead >= 0xe0 && lead <= 0xef) [size, min, max] = [3, lead === 0xe0 ? 0xa0 : 0x80, lead === 0xed ? 0x9f : 0xbf];
    else if (lead >= 0xf0 && lead <= 0xf4) [size, min, max] = [4, lead === 0xf0 ? 0x90 : 0x80, lead === 0xf4 ? 0x8f : 0xbf];
    else return index;
    const second = bytes[index + 1];
    if (second === undefined || second < min || second > max) return index;
    for (let next = 2; next < size; next++) {
      const byte = bytes[index + next];
      if (byte === undefined || byte < 0x80 || byte > 0xbf) return index;
    }
    index += size;
  }
  return -1;
}

/**
 * A body's bytes as text, decoded strictly: bytes that are not UTF-8 are not turned into U+FFFD
 * (a buy-box name would be stored with characters nobody typed) but become an InvalidUtf8Body,
 * which a route with a body answers as `json_invalid` (docs/decisions.md, "Invalid UTF-8"). An
 * empty or blank body is no body.
 */
export function decodeBodyBytes(bytes: Buffer): string | InvalidUtf8Body | undefined {
  if (!isUtf8(bytes)) {
    const offset = firstInvalidUtf8(bytes);
    return new InvalidUtf8Body(bytes.subarray(0, Math.max(0, offset)).toString('utf8').length, offset);
  }
  const text = bytes.toString('utf8');
  return text.trim() === '' ? undefined : text;
}
