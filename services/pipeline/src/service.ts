import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { pipelineRoutes } from './connect.js';
import { pipelineContext } from './context.js';
import { boardHandlers } from './handlers/board.js';
import { propertyHandlers } from './handlers/property.js';
import { migrations } from './migrations/index.js';
import { promotionHandlers } from './promotion/promote.js';
import { SCHEMA } from './schema.js';

export function createPipelineService(deps: ServiceDeps): ServiceModule {
  const context = pipelineContext(deps);
  return {
    name: 'pipeline',
    schema: SCHEMA,
    migrations,
    routes: pipelineRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
      ...promotionHandlers(context),
      ...boardHandlers(context),
      ...propertyHandlers(context),
    }),
  };
}
