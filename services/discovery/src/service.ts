import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { discoveryRoutes } from './connect.js';
import { migrations } from './migrations/index.js';
import { SCHEMA } from './schema.js';

export function createDiscoveryService(deps: ServiceDeps): ServiceModule {
  return {
    name: 'discovery',
    schema: SCHEMA,
    migrations,
    routes: discoveryRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
    }),
  };
}
