import type { Cutoffs } from '@landscreen/buybox-spec';
import type { ParcelIndex } from '../locate/parcel-index.js';
import type { IndexMemory } from '../memory/index-memory.js';
import { verdictMapBytes } from '../memory/index-sizes.js';
import type { Ranking } from '../ranking/rank.js';
import type { VintageIndex } from '../ranking/vintage-index.js';
import { rowsOfParcels, verdictMap, type VerdictMap } from './verdict-map.js';

/** Rankings a map shows at once (a few buy boxes of a few markets); 9 bytes a parcel each. */
const MAX_VIEWS = 6;
const MAX_ROW_MAPS = 4;

interface Cached<V> {
  value: Promise<V>;
  vintageId: string;
  /** Counted in the memory budget once made (0 until then). */
  bytes: number;
}

/**
 * What tiles read of a ranking, kept per query_hash (a query_hash names the spec and the vintage,
 * so a view never goes stale): each parcel's verdict and score by its position in the vintage's
 * parcel index, so a tile looks up the parcels its box search found without touching the ranking.
 * Bounded in number, least recently used first out, and counted in the process's memory budget
 * with their vintage (dropped with it).
 */
export class TileViews {
  private readonly views = new Map<string, Cached<VerdictMap>>();
  private readonly rowMaps = new Map<string, Cached<Uint32Array>>();

  constructor(private readonly memory: IndexMemory) {
    memory.onDrop((vintageId) => {
      for (const cache of [this.views, this.rowMaps] as Map<string, Cached<unknown>>[]) {
        for (const [key, cached] of [...cache]) if (cached.vintageId === vintageId) cache.delete(key);
      }
    });
  }

  /** The view of a query_hash; one being made is shared by every tile that asks meanwhile, and forgotten if it fails. */
  view(queryHash: string, parcels: ParcelIndex, index: VintageIndex, ranking: Ranking, cutoffs: Cutoffs): Promise<VerdictMap> {
    return this.touch(this.views, queryHash, index.vintageId, MAX_VIEWS, async () => verdictMap(ranking, await this.rowsOf(parcels, index), index.size, cutoffs), verdictMapBytes);
  }

  private rowsOf(parcels: ParcelIndex, index: VintageIndex): Promise<Uint32Array> {
    return this.touch(this.rowMaps, index.vintageId, index.vintageId, MAX_ROW_MAPS, () => rowsOfParcels(parcels, index), (rows) => rows.byteLength);
  }

  /** Least recently used first out, a Map's insertion order being the use order. */
  private touch<V>(cache: Map<string, Cached<V>>, key: string, vintageId: string, limit: number, make: () => Promise<V>, bytesOf: (value: V) => number): Promise<V> {
    let cached = cache.get(key);
    if (cached) {
      cache.delete(key);
      cache.set(key, cached);
    } else {
      const entry: Cached<V> = { value: make(), vintageId, bytes: 0 };
      cached = entry;
      cache.set(key, entry);
      entry.value.then(
        (value) => {
          // Dropped with its vintage, or pushed out, while it was being made: nothing to count.
          if (cache.get(key) !== entry) return;
          entry.bytes = bytesOf(value);
          this.memory.add(vintageId, 'tile-views', entry.bytes);
        },
        () => {
          if (cache.get(key) === entry) cache.delete(key);
        },
      );
    }
    while (cache.size > limit) {
      const [oldest, dropped] = cache.entries().next().value!;
      cache.delete(oldest);
      if (dropped.bytes > 0) this.memory.add(dropped.vintageId, 'tile-views', -dropped.bytes);
    }
    return cached.value;
  }
}
