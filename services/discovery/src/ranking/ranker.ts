import type { IndexMemory } from '../memory/index-memory.js';
import { rankingBytes, vintageIndexBytes } from '../memory/index-sizes.js';
import type { IndexLoader } from './index-loader.js';
import { rank, type Ranking, type RankSpec } from './rank.js';
import type { VintageIndex } from './vintage-index.js';

const MAX_RANKINGS = 32;

interface CachedRanking {
  ranking: Ranking;
  vintageId: string;
  bytes: number;
}

/**
 * The in-memory state of ranking: one columnar index per vintage (vintages are immutable, so an
 * index never goes stale) and the evaluated ranking per query_hash (a query_hash names the spec
 * and the vintage, so a cached ranking is exact). Indexes are held within the process's memory
 * budget (IndexMemory drops the least recently used vintage whole); rankings are also bounded in
 * number, least recently used first out.
 */
export class Ranker {
  private readonly indexes = new Map<string, Promise<VintageIndex>>();
  private readonly rankings = new Map<string, CachedRanking>();

  constructor(
    private readonly load: IndexLoader,
    private readonly memory: IndexMemory,
  ) {
    memory.onDrop((vintageId) => this.forget(vintageId));
  }

  index(vintageId: string, marketId: string): Promise<VintageIndex> {
    let found = this.indexes.get(vintageId);
    if (found) {
      this.memory.use(vintageId);
      return found;
    }
    const loading = this.load(vintageId);
    found = loading;
    this.indexes.set(vintageId, loading);
    loading.then(
      (index) => {
        if (this.indexes.get(vintageId) === loading) this.memory.set(vintageId, marketId, 'ranking-index', vintageIndexBytes(index));
      },
      () => {
        if (this.indexes.get(vintageId) === loading) this.indexes.delete(vintageId);
      },
    );
    return found;
  }

  ranking(queryHash: string, index: VintageIndex, spec: RankSpec): Ranking {
    let found = this.rankings.get(queryHash);
    if (found) {
      this.rankings.delete(queryHash);
      this.rankings.set(queryHash, found);
      this.memory.use(found.vintageId);
      return found.ranking;
    }
    const ranking = rank(index, spec);
    found = { ranking, vintageId: index.vintageId, bytes: rankingBytes(ranking) };
    this.rankings.set(queryHash, found);
    while (this.rankings.size > MAX_RANKINGS) {
      const [oldest, cached] = this.rankings.entries().next().value!;
      this.rankings.delete(oldest);
      this.memory.add(cached.vintageId, 'rankings', -cached.bytes);
    }
    this.memory.add(index.vintageId, 'rankings', found.bytes);
    return ranking;
  }

  /** Drops a vintage's index and rankings (IndexMemory decided so; it keeps its own count). */
  private forget(vintageId: string): void {
    this.indexes.delete(vintageId);
    for (const [hash, cached] of [...this.rankings]) if (cached.vintageId === vintageId) this.rankings.delete(hash);
  }
}
