// `landscreen prepare`: a market's current parcels screened on the loaded layers, written as a
// new vintage. It composes two services' operations — the catalog's engine, built from the
// current layer versions, and discovery's vintage writing — so it lives here, in the process
// that owns both, rather than making either service depend on the other.

import { LayerCache } from '@landscreen/catalog-service';
import type { DatabaseHandle } from '@landscreen/db';
import { deriveVintage, type BaseVintage, type ImportProgress } from '@landscreen/discovery-service';
import { FIELD_BY_NAME, evaluatorOf } from '@landscreen/field-catalog';
import type { FaultInjector } from '@landscreen/rpc';
import { preparedFields, sourcesOf } from './prepare-fields.js';
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
   * PostgreSQL only: screen on `count` worker threads (engine-pool.ts), each loading the layers
   * again, when the market has at least `fromParcels` parcels (default WORKERS_FROM_PARCELS).
   */
  engineWorkers?: { databaseUrl: string; count: number; fromParcels?: number };
}

/** Below this, loading the layers again in each worker costs more than it saves. */
export const WORKERS_FROM_PARCELS = 100_000;

export interface PrepareResult {
  marketId: string;
  vintageId: string;
  baseVintageId: string;
  parcels: number;
  fields: string[];
}

export async function prepareMarket(db: DatabaseHandle['db'], options: PrepareOptions): Promise<PrepareResult> {
  // Layers are loaded before the vintage's transaction opens (PGlite has a single connection).
  const { engine, versions } = await new LayerCache(db).current();
  const loaded = new Set(engine.loaded().map((layer) => layer.source as string));
  const { fields, uncovered } = preparedFields({ fields: options.fields, preset: options.preset }, loaded);
  const plan = engine.plan(fields);
  // A field reading no layer (a radius_used service parameter) names the catalog's source of it.
  const sourceOf = (field: string) => sourcesOf(evaluatorOf(FIELD_BY_NAME.get(field)!))[0] ?? FIELD_BY_NAME.get(field)!.source ?? null;
  const provenances = new PreparedProvenances(plan.fields, sourceOf);
  let base: BaseVintage | undefined;
  let evaluator: Promise<PageEvaluator> | undefined;
  const startEvaluator = async (): Promise<PageEvaluator> => {
    const workers = options.engineWorkers;
    if (!workers || workers.count < 1 || base!.parcels < (workers.fromParcels ?? WORKERS_FROM_PARCELS)) return inProcessEvaluator(engine, plan);
    return workerPoolEvaluator({ databaseUrl: workers.databaseUrl, count: workers.count, versionIds: versions.map((version) => version.id), fields: plan.fields, plan });
  };
  try {
    const result = await deriveVintage(db, {
      market: options.market,
      source: 'prepare',
      onBase: (found) => {
        base = found;
        options.onStart?.({ fields, uncovered, base: found });
      },
      onProgress: options.onProgress,
      parallelism: options.engineWorkers ? options.engineWorkers.count + 1 : 1,
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
