// `landscreen prepare`: a market's current parcels screened on the loaded layers, written as a
// new vintage. It composes two services' operations — the catalog's engine, built from the
// current layer versions, and discovery's vintage writing — so it lives here, in the process
// that owns both, rather than making either service depend on the other.

import { LayerCache, catalogDb, type LayerCacheOptions } from '@landscreen/catalog-service';
import type { DatabaseHandle } from '@landscreen/db';
import type { Engine } from '@landscreen/point-engine';
import { deriveVintage, discoveryDb, type BaseVintage, type ImportProgress } from '@landscreen/discovery-service';
import type { FaultInjector } from '@landscreen/rpc';
import { analyzeBaseVintage } from './analyze-base.js';
import { fieldSourceOf, preparedFields } from './prepare-fields.js';
import { inProcessEvaluator, workerPoolEvaluator, type PageEvaluator } from './engine-pool.js';
import { PreparedProvenances, screenParcels } from './screen-parcels.js';

export interface PrepareOptions {
  market: string;
  fields?: string[];
  preset?: string;
  /** Called once the fields and the base vintage are known, before any parcel is screened. */
  onStart?(start: { fields: string[]; uncovered: string[]; base: BaseVintage }): void;
  onProgress?(progress: ImportProgress): void;
  /** Tests: `prepare.page` is hit before each page of parcels is screened. */
  faults?: FaultInjector;
  /**
   * Screen on `count` worker threads (engine-pool.ts), handed the layers loaded here, when the
   * market has at least `fromParcels` parcels (default WORKERS_FROM_PARCELS). `databaseUrl` is
   * no longer used (workers read no layers themselves); kept for callers.
   */
  engineWorkers?: { databaseUrl?: string; count: number; fromParcels?: number };
  /**
   * How the layers are held: the grid block cache's budget, and which grids are read whole.
   * Default: every grid whole, before the vintage's transaction opens — blocks loaded on demand
   * need a connection besides the transaction's, which PGlite does not have.
   */
  layerCache?: LayerCacheOptions;
  /** Rows per stored chunk of the new vintage's ranking index (default: discovery's CHUNK_ROWS). */
  chunkRows?: number;
}

/** Below this, starting workers (a TypeScript loader and the layers' trees each) costs more than it saves. */
export const WORKERS_FROM_PARCELS = 20_000;

export interface PrepareResult {
  marketId: string;
  vintageId: string;
  baseVintageId: string;
  parcels: number;
  fields: string[];
}

export async function prepareMarket(db: DatabaseHandle['db'], options: PrepareOptions): Promise<PrepareResult> {
  // Layers are loaded before the vintage's transaction opens (PGlite has a single connection).
  // `let`: once the workers hold the layers, this thread lets its copy go (see startEvaluator).
  const layerCache = options.layerCache ?? { wholeGridBytes: Number.POSITIVE_INFINITY };
  let { engine } = (await new LayerCache(catalogDb(db), layerCache).current()) as { engine: Engine | null };
  await analyzeBaseVintage(db, options.market);
  const loaded = new Set(engine!.loaded().map((layer) => layer.source as string));
  const { fields, uncovered } = preparedFields({ fields: options.fields, preset: options.preset }, loaded);
  const plan = engine!.plan(fields);
  const sourceOf = fieldSourceOf;
  const provenances = new PreparedProvenances(plan.fields, sourceOf);
  let base: BaseVintage | undefined;
  let evaluator: Promise<PageEvaluator> | undefined;
  const startEvaluator = async (): Promise<PageEvaluator> => {
    const workers = options.engineWorkers;
    if (!workers || workers.count < 1 || base!.parcels < (workers.fromParcels ?? WORKERS_FROM_PARCELS)) return inProcessEvaluator(engine!, plan);
    const pool = await workerPoolEvaluator({ engine: engine!, count: workers.count, plan });
    // The workers have the layers now. This thread's copy (millions of shapes at a million parcels)
    // would only make every full collection of this thread mark it again while it writes the vintage.
    engine = null;
    return pool;
  };
  try {
    const result = await deriveVintage(discoveryDb(db), {
      market: options.market,
      source: 'prepare',
      onBase: (found) => {
        base = found;
        options.onStart?.({ fields, uncovered, base: found });
      },
      onProgress: options.onProgress,
      parallelism: options.engineWorkers ? options.engineWorkers.count + 1 : 1,
      chunkRows: options.chunkRows,
      derive: async (records) => {
        await options.faults?.('prepare.page');
        evaluator ??= startEvaluator();
        await screenParcels({ evaluator: await evaluator, fields: plan.fields, baseVintageId: base!.vintageId, sourceOf, provenances }, records);
      },
      fieldProvenance: () => provenances.fieldProvenance(),
    });
    return { marketId: result.marketId, vintageId: result.vintageId, baseVintageId: base!.vintageId, parcels: result.parcels, fields };
  } finally {
    await evaluator?.then((started) => started.close(), () => {});
  }
}
