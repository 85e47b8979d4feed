import { createHash } from 'node:crypto';
import type { TileAddress } from './tile-address.js';

/**
 * Bump when the bytes of a tile change for the same content (encoding, buffer, properties), so
 * that a client's cached copy from before does not match.
 */
const TILE_FORMAT = 1;

/** A strong ETag for a tile whose content is fully named by `content` (immutable versions and a spec hash) and its address. */
export function tileEtag(content: readonly string[], tile: TileAddress): string {
  const digest = createHash('sha256').update(`${TILE_FORMAT}|${content.join('|')}|${tile.z}/${tile.x}/${tile.y}`).digest('base64url');
  return `"${digest.slice(0, 32)}"`;
}
