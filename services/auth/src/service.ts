import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { authRoutes } from './connect.js';
import { migrations } from './migrations/index.js';
import { SCHEMA } from './schema.js';

export function createAuthService(deps: ServiceDeps): ServiceModule {
  return {
    name: 'auth',
    schema: SCHEMA,
    migrations,
    routes: authRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
    }),
  };
}
