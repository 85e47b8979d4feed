// The engine of the catalog service: one point-engine index per current layer version, loaded
// from the database on first need. Every request first asks the database which versions are
// current (one index-only query), so a layer imported by any process is answered from the next
// request, and every replica answers alike; only a version not yet in memory is loaded, and the
// versions no longer current are dropped. A large vector version is decoded and indexed on a
// worker thread (vector-builds.ts). Tiled grids are indexed without their cells: their
// blocks load as evaluations read them, into one cache of a bounded size (grid-block-cache.ts).

import type { SourceId } from '@landscreen/field-catalog';
import { Engine, type LayerIndex } from '@landscreen/point-engine';
import type { CatalogDb } from '../schema.js';
import { GridBlockCache } from './grid-block-cache.js';
import { loadLayerIndex, type GridLoading, type VectorLoading } from './load-layer.js';
import { DEFAULT_OFF_THREAD_BYTES } from './vector-builds.js';
import { currentVersions, versionById, type CurrentVersion } from './versions.js';

/** LAYER_GRID_CACHE_MB's default: the blocks of tiled grids held at once. */
export const DEFAULT_GRID_CACHE_BYTES = 512 * 2 ** 20;
/** Tiled grids whose cells take at most this are held whole (read once, never waited on). */
export const WHOLE_GRID_BYTES = 64 * 2 ** 20;

export interface LayerCacheOptions {
  /** Bytes of grid blocks held at once (LAYER_GRID_CACHE_MB). */
  gridCacheBytes?: number;
  /** Tiled grids of at most this many bytes of cells are read whole when loaded. */
  wholeGridBytes?: number;
  /** Vector versions storing more than this many bytes are decoded and indexed on a worker thread (default 1 MiB; 0: all). */
  offThreadBytes?: number;
}

export class LayerCache {
  private readonly engine = new Engine();
  /** Loads in flight or done, by version id: concurrent requests share one load. */
  private readonly loads = new Map<string, Promise<LayerIndex>>();
  /** The `seq` of the version loaded per source. */
  private readonly loadedSeq = new Map<string, bigint>();
  private readonly grids: GridLoading;
  private readonly vectors: VectorLoading;

  constructor(
    private readonly db: CatalogDb,
    options: LayerCacheOptions = {},
  ) {
    this.grids = {
      blocks: new GridBlockCache(db, options.gridCacheBytes ?? DEFAULT_GRID_CACHE_BYTES),
      wholeGridBytes: options.wholeGridBytes ?? WHOLE_GRID_BYTES,
    };
    this.vectors = { offThreadBytes: options.offThreadBytes ?? DEFAULT_OFF_THREAD_BYTES };
  }

  /** The blocks of tiled grids held now, and the most that may be. */
  get gridCache(): { heldBytes: number; budgetBytes: number } {
    return { heldBytes: this.grids.blocks.heldBytes, budgetBytes: this.grids.blocks.budgetBytes };
  }

  /** The engine with every source's current version loaded, as the database says now. */
  async current(): Promise<{ engine: Engine; versions: CurrentVersion[] }> {
    const versions = await currentVersions(this.db);
    // A few versions load at a time: each holds a pooled connection while its chunks stream, and
    // a restart with every source to load (75) must not take the whole pool from other requests.
    const indexes = await mapConcurrently(versions, LOAD_CONCURRENCY, (version) => this.load(version.id));
    const current = new Set(versions.map((version) => version.source));
    versions.forEach((version, i) => {
      // A slower request may hold an older view: never step a source back from a newer version.
      const seq = BigInt(version.seq);
      if ((this.loadedSeq.get(version.source) ?? -1n) >= seq) return;
      this.engine.load(indexes[i]);
      this.loadedSeq.set(version.source, seq);
    });
    for (const { source } of this.engine.loaded()) {
      if (current.has(source)) continue;
      this.engine.unload(source as SourceId);
      this.loadedSeq.delete(source);
    }
    this.forgetExcept(new Set(versions.map((version) => version.id)));
    return { engine: this.engine, versions };
  }

  private load(id: string): Promise<LayerIndex> {
    let load = this.loads.get(id);
    if (!load) {
      load = (async () => {
        const version = await versionById(this.db, id);
        if (!version) throw new Error(`layer version ${id} vanished while loading`);
        return loadLayerIndex(this.db, version, this.grids, this.vectors);
      })();
      this.loads.set(id, load);
      // A failed load is retried by the next request rather than remembered.
      load.catch(() => this.loads.delete(id));
    }
    return load;
  }

  private forgetExcept(keep: ReadonlySet<string>): void {
    for (const id of this.loads.keys()) {
      if (keep.has(id)) continue;
      this.loads.delete(id);
      this.grids.blocks.forget(id);
    }
  }
}

const LOAD_CONCURRENCY = 3;

/** `items.map(work)` with at most `limit` calls in flight, answers in the items' order. */
async function mapConcurrently<T, R>(items: readonly T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const n = next++;
      results[n] = await work(items[n]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
