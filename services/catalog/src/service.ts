import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { catalogRoutes } from './connect.js';
import { estimateHostingCapacityHandler } from './handlers/estimate-hosting-capacity.js';
import { evaluatePoints } from './handlers/evaluate-points.js';
import { getUtilityFindingsHandler } from './handlers/get-utility-findings.js';
import { listLayers } from './handlers/list-layers.js';
import { listSources } from './handlers/list-sources.js';
import { listFields } from './handlers/list-fields.js';
import { listPlans } from './handlers/list-plans.js';
import { LayerCache } from './layers/layer-cache.js';
import { migrations } from './migrations/index.js';
import { SCHEMA } from './schema.js';

export function createCatalogService(deps: ServiceDeps): ServiceModule {
  const layers = new LayerCache(deps.db);
  return {
    name: 'catalog',
    schema: SCHEMA,
    migrations,
    routes: catalogRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
      listFields,
      listPlans,
      evaluatePoints: evaluatePoints(layers),
      listSources: listSources(deps.db),
      listLayers: listLayers(deps.db),
      estimateHostingCapacity: estimateHostingCapacityHandler(layers),
      getUtilityFindings: getUtilityFindingsHandler(layers, () => deps.peer('discovery')),
    }),
  };
}
