import type { Cutoffs } from '@landscreen/buybox-spec';
import type { ParcelIndex } from '../locate/parcel-index.js';
import type { Ranking } from '../ranking/rank.js';
import type { VintageIndex } from '../ranking/vintage-index.js';
import { rowsOfParcels, verdictMap, type VerdictMap } from './verdict-map.js';

/** Rankings a map shows at once (a few buy boxes of a few markets); 9 bytes a parcel each. */
const MAX_VIEWS = 6;
const MAX_ROW_MAPS = 4;

/** Least recently used first out, a Map's insertion order being the use order. */
function touch<K, V>(cache: Map<K, V>, key: K, make: () => V, limit: number): V {
  let value = cache.get(key);
  if (value !== undefined) cache.delete(key);
  else value = make();
  cache.set(key, value);
  while (cache.size > limit) cache.delete(cache.keys().next().value!);
  return value;
}

/**
 * What tiles read of a ranking, kept per query_hash (a query_hash names the spec and the vintage,
 * so a view never goes stale): each parcel's verdict and score by its position in the vintage's
 * parcel index, so a tile looks up the parcels its box search found without touching the ranking.
 */
export class TileViews {
  private readonly views = new Map<string, Promise<VerdictMap>>();
  private readonly rowMaps = new Map<string, Promise<Uint32Array>>();

  /** The view of a query_hash; one being made is shared by every tile that asks meanwhile, and forgotten if it fails. */
  view(queryHash: string, parcels: ParcelIndex, index: VintageIndex, ranking: Ranking, cutoffs: Cutoffs): Promise<VerdictMap> {
    const made = touch(
      this.views,
      queryHash,
      async () => verdictMap(ranking, await this.rowsOf(parcels, index), index.size, cutoffs),
      MAX_VIEWS,
    );
    made.catch(() => this.views.get(queryHash) === made && this.views.delete(queryHash));
    return made;
  }

  private rowsOf(parcels: ParcelIndex, index: VintageIndex): Promise<Uint32Array> {
    const key = index.vintageId;
    const made = touch(this.rowMaps, key, () => rowsOfParcels(parcels, index), MAX_ROW_MAPS);
    made.catch(() => this.rowMaps.get(key) === made && this.rowMaps.delete(key));
    return made;
  }
}
