import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { diligenceRoutes } from './connect.js';
import { migrations } from './migrations/index.js';
import { SCHEMA } from './schema.js';

export function createDiligenceService(deps: ServiceDeps): ServiceModule {
  return {
    name: 'diligence',
    schema: SCHEMA,
    migrations,
    routes: diligenceRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
    }),
  };
}
