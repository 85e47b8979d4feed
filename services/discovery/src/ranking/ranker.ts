import type { IndexLoader } from './index-loader.js';
import { rank, type Ranking, type RankSpec } from './rank.js';
import type { VintageIndex } from './vintage-index.js';

const MAX_INDEXES = 4;
const MAX_RANKINGS = 32;

/**
 * The in-memory state of ranking: one columnar index per vintage (vintages are immutable, so an
 * index never goes stale) and the evaluated ranking per query_hash (a query_hash names the spec
 * and the vintage, so a cached ranking is exact). Both are bounded, least recently used first out.
 */
export class Ranker {
  private readonly indexes = new Map<string, Promise<VintageIndex>>();
  private readonly rankings = new Map<string, Ranking>();

  constructor(private readonly load: IndexLoader) {}

  index(vintageId: string): Promise<VintageIndex> {
    let found = this.indexes.get(vintageId);
    if (found) {
      this.indexes.delete(vintageId);
      this.indexes.set(vintageId, found);
      return found;
    }
    found = this.load(vintageId);
    found.catch(() => this.indexes.delete(vintageId));
    this.indexes.set(vintageId, found);
    while (this.indexes.size > MAX_INDEXES) this.indexes.delete(this.indexes.keys().next().value!);
    return found;
  }

  ranking(queryHash: string, index: VintageIndex, spec: RankSpec): Ranking {
    let found = this.rankings.get(queryHash);
    if (found) {
      this.rankings.delete(queryHash);
    } else {
      found = rank(index, spec);
    }
    this.rankings.set(queryHash, found);
    while (this.rankings.size > MAX_RANKINGS) this.rankings.delete(this.rankings.keys().next().value!);
    return found;
  }
}
