import type { FastifyRequest } from 'fastify';
import type { RouteResult } from '../routes/route.js';
import type { CachedTile, TileCache } from './tile-cache.js';

export const MVT = 'application/vnd.mapbox-vector-tile';

/** The etags of an If-None-Match header (weak ones compare by their opaque part, as RFC 9110 says for GET). */
export function ifNoneMatch(request: FastifyRequest): string[] {
  const header = request.headers['if-none-match'];
  if (typeof header !== 'string') return [];
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .filter((tag) => tag !== '');
}

export interface TileAnswer {
  etag: string;
  notModified: boolean;
}

/**
 * Asks the service for a tile, telling it which etags are held (the client's and the cache's);
 * answers 304 when the client's copy is current, the cached bytes when the cache's is, else the
 * freshly encoded tile, which is cached.
 */
export async function tileAnswer<A extends TileAnswer>(options: {
  request: FastifyRequest;
  cache: TileCache;
  key: string;
  cacheControl: string;
  ask: (knownEtags: string[]) => Promise<A>;
  encode: (answer: A) => Uint8Array;
}): Promise<RouteResult> {
  const client = ifNoneMatch(options.request);
  const cached = options.cache.get(options.key);
  const answer = await options.ask(cached ? [...client, cached.etag] : client);
  const headers = { etag: answer.etag, 'cache-control': options.cacheControl, vary: 'authorization, cookie, x-tenant' };
  if (answer.notModified && client.includes(answer.etag)) return { status: 304, headers };
  let tile: CachedTile | undefined = answer.notModified && cached?.etag === answer.etag ? cached : undefined;
  if (!tile) {
    tile = { etag: answer.etag, bytes: options.encode(answer) };
    options.cache.set(options.key, tile);
  }
  return { status: 200, body: Buffer.from(tile.bytes.buffer, tile.bytes.byteOffset, tile.bytes.byteLength), headers: { ...headers, 'content-type': MVT } };
}
