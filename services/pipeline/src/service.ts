import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { pipelineRoutes } from './connect.js';
import { migrations } from './migrations/index.js';
import { SCHEMA } from './schema.js';

export function createPipelineService(deps: ServiceDeps): ServiceModule {
  return {
    name: 'pipeline',
    schema: SCHEMA,
    migrations,
    routes: pipelineRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
    }),
  };
}
