import type { Logger } from '@landscreen/rpc';
import type { ParcelIndex } from './parcel-index.js';

/** Enough for every current vintage of a deployment's markets at once, bounded all the same. */
const MAX_INDEXES = 8;

export type ParcelIndexLoader = (vintageId: string) => Promise<ParcelIndex>;

/**
 * The parcel indexes of the vintages asked for, built on first use and kept (vintages are
 * immutable, so an index never goes stale), least recently used first out. A load in progress is
 * shared by every request that needs it; a failed one is forgotten, so the next request retries.
 */
export class ParcelIndexes {
  private readonly indexes = new Map<string, Promise<ParcelIndex>>();

  constructor(
    private readonly load: ParcelIndexLoader,
    private readonly logger?: Logger,
  ) {}

  index(vintageId: string): Promise<ParcelIndex> {
    let found = this.indexes.get(vintageId);
    if (found) {
      this.indexes.delete(vintageId);
      this.indexes.set(vintageId, found);
      return found;
    }
    const started = performance.now();
    found = this.load(vintageId);
    found.then(
      (index) => this.logger?.debug({ vintageId, parcels: index.size, ms: Math.round(performance.now() - started) }, 'parcel index built'),
      () => this.indexes.delete(vintageId),
    );
    this.indexes.set(vintageId, found);
    while (this.indexes.size > MAX_INDEXES) this.indexes.delete(this.indexes.keys().next().value!);
    return found;
  }
}
