/** A tile's bytes and the etag naming its content. */
export interface CachedTile {
  etag: string;
  bytes: Uint8Array;
}

/**
 * Encoded tiles by their address (and, for parcels, the tenant and buy box), bounded by bytes,
 * least recently used first out. An entry is served only when the service confirms its etag is
 * still the tile's (the buy box may have changed under the same name), so the cache saves the
 * geometry and the encoding, never a check.
 */
export class TileCache {
  private readonly entries = new Map<string, CachedTile>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  get(key: string): CachedTile | undefined {
    const found = this.entries.get(key);
    if (found) {
      this.entries.delete(key);
      this.entries.set(key, found);
    }
    return found;
  }

  set(key: string, tile: CachedTile): void {
    const old = this.entries.get(key);
    if (old) {
      this.bytes -= old.bytes.byteLength;
      this.entries.delete(key);
    }
    if (tile.bytes.byteLength > this.maxBytes / 8) return;
    this.entries.set(key, tile);
    this.bytes += tile.bytes.byteLength;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(oldest);
      this.bytes -= entry.bytes.byteLength;
    }
  }
}
