import type { Logger } from '@landscreen/rpc';
import type { IndexMemory } from '../memory/index-memory.js';
import type { ParcelIndex } from './parcel-index.js';

export type ParcelIndexLoader = (vintageId: string) => Promise<ParcelIndex>;

/**
 * The parcel indexes of the vintages asked for, built on first use and kept (vintages are
 * immutable, so an index never goes stale) within the process's memory budget, which drops the
 * least recently used vintage whole. A load in progress is shared by every request that needs it;
 * a failed one is forgotten, so the next request retries. What an index holds grows once
 * LocateParcels first builds its engine index: the growth is counted at its next use.
 */
export class ParcelIndexes {
  private readonly indexes = new Map<string, Promise<ParcelIndex>>();
  private readonly counted = new Map<string, { index: ParcelIndex; marketId: string; bytes: number }>();

  constructor(
    private readonly load: ParcelIndexLoader,
    private readonly memory: IndexMemory,
    private readonly logger?: Logger,
  ) {
    memory.onDrop((vintageId) => {
      this.indexes.delete(vintageId);
      this.counted.delete(vintageId);
    });
  }

  index(vintageId: string, marketId: string): Promise<ParcelIndex> {
    const found = this.indexes.get(vintageId);
    if (found) {
      const counted = this.counted.get(vintageId);
      if (counted && counted.index.approximateBytes() !== counted.bytes) this.count(vintageId, counted.marketId, counted.index);
      else this.memory.use(vintageId);
      return found;
    }
    const started = performance.now();
    const loading = this.load(vintageId);
    this.indexes.set(vintageId, loading);
    loading.then(
      (index) => {
        this.logger?.debug({ vintageId, parcels: index.size, ms: Math.round(performance.now() - started) }, 'parcel index built');
        if (this.indexes.get(vintageId) === loading) this.count(vintageId, marketId, index);
      },
      () => {
        if (this.indexes.get(vintageId) === loading) this.indexes.delete(vintageId);
      },
    );
    return loading;
  }

  private count(vintageId: string, marketId: string, index: ParcelIndex): void {
    const bytes = index.approximateBytes();
    this.counted.set(vintageId, { index, marketId, bytes });
    this.memory.set(vintageId, marketId, 'parcel-index', bytes);
  }
}
