import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { pipelineRoutes } from './connect.js';
import { pipelineContext } from './context.js';
import { boardHandlers } from './handlers/board.js';
import { deliveryHandlers } from './leads/deliveries.js';
import { importHandlers } from './leads/import/handler.js';
import { leadRequestHandlers } from './leads/lead-requests.js';
import { startLeadWork } from './leads/worker.js';
import { propertyHandlers } from './handlers/property.js';
import { reportPropertyHandlers } from './handlers/report-properties.js';
import { migrations } from './migrations/index.js';
import { promotionHandlers } from './promotion/promote.js';
import { SCHEMA } from './schema.js';

export function createPipelineService(deps: ServiceDeps): ServiceModule {
  const context = pipelineContext(deps);
  // D30: the relay of the pipeline's outbox and the lead-request worker run wherever the service
  // runs (in-process in the embedded default, in the pipeline process when distributed).
  const leadWork = startLeadWork(context, deps);
  return {
    name: 'pipeline',
    schema: SCHEMA,
    migrations,
    routes: pipelineRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
      ...promotionHandlers(context),
      ...boardHandlers(context),
      ...propertyHandlers(context),
      ...reportPropertyHandlers(context),
      ...leadRequestHandlers(context),
      ...deliveryHandlers(context),
      ...importHandlers(context),
    }),
    start: () => leadWork.start(),
    stop: () => leadWork.stop(),
  };
}
