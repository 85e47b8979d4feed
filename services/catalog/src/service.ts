import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { catalogRoutes } from './connect.js';
import { listFields } from './handlers/list-fields.js';
import { listPlans } from './handlers/list-plans.js';
import { migrations } from './migrations/index.js';
import { SCHEMA } from './schema.js';

export function createCatalogService(deps: ServiceDeps): ServiceModule {
  return {
    name: 'catalog',
    schema: SCHEMA,
    migrations,
    routes: catalogRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
      listFields,
      listPlans,
    }),
  };
}
