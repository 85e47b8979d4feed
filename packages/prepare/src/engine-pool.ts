// The engine of `landscreen prepare` on PostgreSQL: worker threads, each with its own engine over
// the same layer versions, screening pages of parcels while the main thread writes the vintage —
// the engine is most of prepare's CPU (≈200 fields a parcel), and on one thread it would leave
// the other cores idle. The layers are read and indexed once, here: each worker gets them as
// snapshots on SharedArrayBuffers (catalog's layer-snapshot.ts) and rebuilds only its trees,
// without a database connection (reading the 75 layers again cost each worker 10-40 s). A grid
// too large to hold whole stays here: the blocks a page reads are loaded here and go with the page
// (on SharedArrayBuffers: shared, not copied).

import os from 'node:os';
import { snapshotLayers, type LayerSnapshot } from '@landscreen/catalog-service';
import type { SourceId } from '@landscreen/field-catalog';
import { startWorker } from '@landscreen/threads';
import { Engine, EngineAnswer, type EvaluationPlan, type HeldGridBlocks, type Location, type PolygonalGeometry, type Provenance } from '@landscreen/point-engine';

export interface WorkerData {
  /** The layers of the prepare's engine, shared (not copied) between the workers. */
  layers: LayerSnapshot[];
  fields: readonly string[];
}

export interface PageRequest {
  id: number;
  vintage: string;
  lons: Float64Array;
  lats: Float64Array;
  keys: string[];
  geometries: (PolygonalGeometry | null)[];
  /** The blocks of grids not held whole that the page reads. */
  gridBlocks: Map<SourceId, HeldGridBlocks>;
}

export interface PageResponse {
  id: number;
  kinds: Uint8Array;
  numbers: Float64Array;
  strings: string[];
  reasonCodes: Uint8Array;
  provenanceIds: Uint32Array;
  provenances: Provenance[];
  error?: string;
}

/** The parcels of a page, as the engine takes them. */
export interface PageInput {
  vintage: string;
  locations: Location[];
  keys: string[];
  geometries: (PolygonalGeometry | null)[];
}

/** Evaluates pages of parcels: in process, or on a pool of workers. */
export interface PageEvaluator {
  evaluate(page: PageInput): Promise<EngineAnswer>;
  /** How many pages are worth having in flight at once. */
  readonly parallelism: number;
  close(): Promise<void>;
}

/** In process: the engine the caller holds. */
export function inProcessEvaluator(engine: Engine, plan: EvaluationPlan): PageEvaluator {
  return {
    parallelism: 1,
    evaluate: async (page) =>
      engine.evaluateLoaded(page.locations, plan, {
        parcels: page.keys.map((id, n) => ({ vintage: page.vintage, parcel: { id, geometry: page.geometries[n] }, match_type: 'exact_intersect', distance_m: 0, radius_m: 0 })),
      }),
    close: async () => {},
  };
}

/** Workers used by default: one per core (the main thread's share is mostly waiting on PostgreSQL). */
export const DEFAULT_ENGINE_WORKERS = Math.max(1, Math.min(os.availableParallelism?.() ?? os.cpus().length, 4));

/** A pool of `count` engine workers over the layers `engine` holds (the versions prepare started with). */
export async function workerPoolEvaluator(options: { engine: Engine; count: number; plan: EvaluationPlan }): Promise<PageEvaluator> {
  const { count, plan, engine } = options;
  const data: WorkerData = { layers: snapshotLayers(engine), fields: plan.fields };
  // Only the grids whose blocks load on demand are kept here, to load each page's blocks.
  const grids = new Engine();
  for (const { source } of engine.loaded()) {
    const index = engine.layer(source as SourceId)!;
    if (index.kind === 'grid' && !index.resident) grids.load(index);
  }
  const workers = Array.from({ length: count }, () => startWorker(new URL('./engine-worker.js', import.meta.url), { workerData: data }));
  const pending = new Map<number, { resolve(answer: EngineAnswer): void; reject(error: Error): void }>();
  // Provenances come back as copies: one object per distinct provenance, so pages share them.
  const interned = new Map<string, Provenance>();
  const intern = (provenance: Provenance) => {
    const key = JSON.stringify(provenance);
    let found = interned.get(key);
    if (!found) interned.set(key, (found = Object.freeze(provenance)));
    return found;
  };
  let failure: Error | undefined;
  const fail = (error: Error) => {
    failure ??= error;
    for (const { reject } of pending.values()) reject(failure);
    pending.clear();
  };
  const ready = workers.map(
    (worker) =>
      new Promise<void>((resolve, reject) => {
        worker.on('message', (message: PageResponse & { ready?: true; failed?: string }) => {
          if (message.ready) return resolve();
          if (message.failed) return reject(new Error(message.failed));
          const waiting = pending.get(message.id);
          if (!waiting) return;
          pending.delete(message.id);
          if (message.error) return waiting.reject(new Error(message.error));
          waiting.resolve(
            new EngineAnswer(plan.fields, message.kinds.length / Math.max(1, plan.fields.length), message.kinds, message.numbers, message.strings, message.reasonCodes, message.provenanceIds, message.provenances.map(intern)),
          );
        });
        worker.on('error', (error) => {
          reject(error);
          fail(error);
        });
        worker.on('exit', (code) => {
          if (code !== 0) fail(new Error(`a prepare engine worker exited with code ${code}`));
        });
      }),
  );
  const close = async () => {
    await Promise.all(workers.map((worker) => worker.terminate()));
  };
  try {
    await Promise.all(ready);
  } catch (error) {
    await close();
    throw error;
  }
  let next = 0;
  return {
    parallelism: count + 1,
    async evaluate(page) {
      if (failure) throw failure;
      const gridBlocks = await grids.loadGridBlocks(page.locations, plan);
      const id = next++;
      const request: PageRequest = {
        id,
        vintage: page.vintage,
        lons: Float64Array.from(page.locations, (location) => location.lon),
        lats: Float64Array.from(page.locations, (location) => location.lat),
        keys: page.keys,
        // Only the fields of the parcel group read the polygon: spare the copy otherwise.
        geometries: plan.parcelOverlay.length > 0 || plan.parcelRecord.length > 0 ? page.geometries : page.keys.map(() => null),
        gridBlocks,
      };
      return new Promise<EngineAnswer>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        workers[id % count].postMessage(request);
      });
    },
    close,
  };
}
