import type { IndexMemory } from '../memory/index-memory.js';
import { rankingBytes, vintageIndexBytes } from '../memory/index-sizes.js';
import type { IndexLoader } from './index-loader.js';
import { rank, specFields, type Ranking, type RankSpec } from './rank.js';
import type { Evictable } from './resident-columns.js';
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
 * budget: IndexMemory first has the least recently used columns shed (those of an index read from
 * a local file, which reads them again when a ranking needs them), then drops the least recently
 * used vintage whole; rankings are also bounded in number, least recently used first out.
 */
export class Ranker {
  private readonly indexes = new Map<string, Promise<VintageIndex>>();
  /** The indexes loaded, for shedding their columns. */
  private readonly loaded = new Map<string, VintageIndex>();
  private readonly rankings = new Map<string, CachedRanking>();

  constructor(
    private readonly load: IndexLoader,
    private readonly memory: IndexMemory,
  ) {
    memory.onDrop((vintageId) => this.forget(vintageId));
    memory.onShed((excess) => this.shed(excess));
  }

  index(vintageId: string, marketId: string): Promise<VintageIndex> {
    let found = this.indexes.get(vintageId);
    if (found) {
      this.memory.use(vintageId);
      return found;
    }
    const loading: Promise<VintageIndex> = this.load(vintageId, (lazy) => void loading.then((index) => this.reopened(vintageId, index, lazy)));
    found = loading;
    this.indexes.set(vintageId, loading);
    loading.then(
      (index) => {
        if (this.indexes.get(vintageId) !== loading) return;
        this.hold(vintageId, index);
        this.memory.set(vintageId, marketId, 'ranking-index', vintageIndexBytes(index));
      },
      () => {
        if (this.indexes.get(vintageId) === loading) this.indexes.delete(vintageId);
      },
    );
    return found;
  }

  /** An index now held for the vintage: its column reads and damage are told to the budget. */
  private hold(vintageId: string, index: VintageIndex): void {
    this.loaded.set(vintageId, index);
    index.resident.onDamaged = () => {
      if (this.loaded.get(vintageId) !== index) return;
      this.memory.drop(vintageId);
      this.forget(vintageId);
    };
    index.resident.onChange = () => {
      if (this.loaded.get(vintageId) === index) this.memory.resize(vintageId, 'ranking-index', vintageIndexBytes(index));
    };
  }

  /**
   * The index read whole from the database, now in the local cache: the copy opened from the file
   * is held instead, so that its columns come and go (rankings cached meanwhile stay valid: the
   * same vintage, the same rows). Requests under way keep the one they have.
   */
  private reopened(vintageId: string, previous: VintageIndex, lazy: VintageIndex): void {
    if (this.loaded.get(vintageId) !== previous) return;
    this.indexes.set(vintageId, Promise.resolve(lazy));
    this.hold(vintageId, lazy);
    this.memory.resize(vintageId, 'ranking-index', vintageIndexBytes(lazy));
  }

  /** The ranking of a spec over the index, cached per query_hash; the columns it reads are made resident first. */
  async ranking(queryHash: string, index: VintageIndex, spec: RankSpec): Promise<Ranking> {
    const cached = this.cached(queryHash);
    if (cached) return cached;
    const columns = await index.columnsFor(specFields(spec));
    // Another request may have ranked the same query while the columns were read.
    const ranked = this.cached(queryHash);
    if (ranked) return ranked;
    const ranking = rank(index, spec, columns);
    const found = { ranking, vintageId: index.vintageId, bytes: rankingBytes(ranking) };
    this.rankings.set(queryHash, found);
    while (this.rankings.size > MAX_RANKINGS) {
      const [oldest, dropped] = this.rankings.entries().next().value!;
      this.rankings.delete(oldest);
      this.memory.add(dropped.vintageId, 'rankings', -dropped.bytes);
    }
    this.memory.add(index.vintageId, 'rankings', found.bytes);
    return ranking;
  }

  private cached(queryHash: string): Ranking | undefined {
    const found = this.rankings.get(queryHash);
    if (!found) return undefined;
    this.rankings.delete(queryHash);
    this.rankings.set(queryHash, found);
    this.memory.use(found.vintageId);
    return found.ranking;
  }

  /** Drops the least recently used columns of any loaded index until `excess` bytes are shed (or none is left to shed). */
  private shed(excess: number): void {
    const parts: (Evictable & { index: VintageIndex })[] = [];
    for (const index of this.loaded.values()) for (const part of index.resident.evictable()) parts.push({ ...part, index });
    parts.sort((a, b) => a.lastUse - b.lastUse);
    const touched = new Set<VintageIndex>();
    let shed = 0;
    for (const part of parts) {
      if (shed >= excess) break;
      part.index.resident.evict(part);
      touched.add(part.index);
      shed += part.bytes;
    }
    for (const index of touched) this.memory.resize(index.vintageId, 'ranking-index', vintageIndexBytes(index));
  }

  /** Drops a vintage's index and rankings (IndexMemory decided so; it keeps its own count). */
  private forget(vintageId: string): void {
    this.indexes.delete(vintageId);
    this.loaded.delete(vintageId);
    for (const [hash, cached] of [...this.rankings]) if (cached.vintageId === vintageId) this.rankings.delete(hash);
  }
}
