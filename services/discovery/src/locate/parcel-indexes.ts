import type { Logger } from '@landscreen/rpc';
import type { IndexMemory } from '../memory/index-memory.js';
import type { ParcelIndex } from './parcel-index.js';

export type ParcelIndexLoader = (vintageId: string) => Promise<ParcelIndex>;

/**
 * The parcel indexes of the vintages asked for, built on first use and kept (vintages are
 * immutable, so an index never goes stale) within the process's memory budget, which drops the
 * least recently used vintage whole. A load in progress is shared by every request that needs it;
 * a failed one is forgotten, so the next request retries. The engine's index over the polygons is
 * made with the rest (from the parts the worker computed), so an index is counted once, whole.
 */
export class ParcelIndexes {
  private readonly indexes = new Map<string, Promise<ParcelIndex>>();

  constructor(
    private readonly load: ParcelIndexLoader,
    private readonly memory: IndexMemory,
    private readonly logger?: Logger,
  ) {
    memory.onDrop((vintageId) => this.indexes.delete(vintageId));
  }

  index(vintageId: string, marketId: string): Promise<ParcelIndex> {
    const found = this.indexes.get(vintageId);
    if (found) {
      this.memory.use(vintageId);
      return found;
    }
    const started = performance.now();
    const loading = this.load(vintageId);
    this.indexes.set(vintageId, loading);
    loading.then(
      (index) => {
        this.logger?.debug({ vintageId, parcels: index.size, ms: Math.round(performance.now() - started) }, 'parcel index built');
        if (this.indexes.get(vintageId) !== loading) return;
        const count = () => this.indexes.get(vintageId) === loading && this.memory.set(vintageId, marketId, 'parcel-index', index.approximateBytes());
        count();
      },
      () => {
        if (this.indexes.get(vintageId) === loading) this.indexes.delete(vintageId);
      },
    );
    return loading;
  }
}
