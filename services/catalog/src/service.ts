import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { countRunsInFlightWith } from '@landscreen/telemetry';
import { catalogRoutes } from './connect.js';
import { estimateHostingCapacityHandler } from './handlers/estimate-hosting-capacity.js';
import { evaluatePoints } from './handlers/evaluate-points.js';
import { fetchBatchHandler } from './handlers/fetch-batch.js';
import { getUsageHandler } from './handlers/get-usage.js';
import { lookupHandler } from './handlers/lookup.js';
import { getUtilityFindingsHandler } from './handlers/get-utility-findings.js';
import { listLayers } from './handlers/list-layers.js';
import { listSources } from './handlers/list-sources.js';
import { listFields } from './handlers/list-fields.js';
import { listPlans } from './handlers/list-plans.js';
import { nearestGridFeaturesHandler } from './handlers/nearest-grid-features.js';
import { layerTileHandler } from './handlers/layer-tile.js';
import { LayerCache } from './layers/layer-cache.js';
import { migrations } from './migrations/index.js';
import { catalogRuns } from './runs/index.js';
import { countLiveRuns } from './runs/live-runs.js';
import { catalogDb, SCHEMA } from './schema.js';

export function createCatalogService(deps: ServiceDeps): ServiceModule {
  // The service's view of the database, made once: the handlers, the layer cache, billing and runs share it.
  const db = catalogDb(deps.db);
  const layers = new LayerCache(db, { gridCacheBytes: deps.config.grids.cacheMb * 2 ** 20 });
  const runs = catalogRuns(deps, db);
  const evaluate = evaluatePoints(layers, () => deps.peer('discovery'));
  // Billing (D34): the ledger, rpm windows and idempotency keys, on the service's clock.
  const billing = { db, clock: deps.clock, faults: deps.faults };
  return {
    name: 'catalog',
    schema: SCHEMA,
    migrations,
    routes: catalogRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
      listFields,
      listPlans,
      evaluatePoints: evaluate,
      fetchBatch: fetchBatchHandler(billing, layers, evaluate),
      lookup: lookupHandler(billing, evaluate, () => deps.peer('discovery')),
      getUsage: getUsageHandler(billing),
      listSources: listSources(db),
      listLayers: listLayers(db),
      estimateHostingCapacity: estimateHostingCapacityHandler(layers),
      getUtilityFindings: getUtilityFindingsHandler(layers, () => deps.peer('discovery')),
      nearestGridFeatures: nearestGridFeaturesHandler(layers),
      layerTile: layerTileHandler(layers),
      ...runs.handlers,
    }),
    // D35: the chunk relay runs in every catalog replica.
    start: async () => {
      runs.relay.start();
      countRunsInFlightWith(() => countLiveRuns(db));
    },
    stop: () => {
      countRunsInFlightWith(undefined);
      return runs.relay.stop();
    },
  };
}
