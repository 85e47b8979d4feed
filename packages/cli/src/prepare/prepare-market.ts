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
import { screenParcels } from './screen-parcels.js';

export interface PrepareOptions {
  market: string;
  fields?: string[];
  preset?: string;
  /** Called once the fields and the base vintage are known, before any parcel is screened. */
  onStart?(start: { fields: string[]; uncovered: string[]; base: BaseVintage }): void;
  onProgress?(progress: ImportProgress): void;
  /** Tests: `prepare.page` is hit before each page of parcels is screened. */
  faults?: FaultInjector;
}

export interface PrepareResult {
  marketId: string;
  vintageId: string;
  baseVintageId: string;
  parcels: number;
  fields: string[];
}

export async function prepareMarket(db: DatabaseHandle['db'], options: PrepareOptions): Promise<PrepareResult> {
  // Layers are loaded before the vintage's transaction opens (PGlite has a single connection).
  const { engine } = await new LayerCache(db).current();
  const loaded = new Set(engine.loaded().map((layer) => layer.source as string));
  const { fields, uncovered } = preparedFields({ fields: options.fields, preset: options.preset }, loaded);
  const plan = engine.plan(fields);
  const sourceOf = (field: string) => sourcesOf(evaluatorOf(FIELD_BY_NAME.get(field)!))[0] ?? null;
  let base: BaseVintage | undefined;
  const result = await deriveVintage(db, {
    market: options.market,
    source: 'prepare',
    onBase: (found) => {
      base = found;
      options.onStart?.({ fields, uncovered, base: found });
    },
    onProgress: options.onProgress,
    derive: async (records) => {
      await options.faults?.('prepare.page');
      screenParcels({ engine, plan, fields, baseVintageId: base!.vintageId, sourceOf }, records);
    },
  });
  return { marketId: result.marketId, vintageId: result.vintageId, baseVintageId: base!.vintageId, parcels: result.parcels, fields };
}
