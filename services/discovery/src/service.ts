import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { discoveryRoutes } from './connect.js';
import { cursorSecretLoader, type DiscoveryContext } from './context.js';
import { buyBoxHandlers } from './handlers/buy-boxes.js';
import { findLeadsHandler } from './handlers/find-leads.js';
import { queryHandler } from './handlers/query.js';
import { resolveHandler } from './handlers/resolve.js';
import { migrations } from './migrations/index.js';
import { Ranker } from './ranking/ranker.js';
import { SCHEMA } from './schema.js';

export function createDiscoveryService(deps: ServiceDeps): ServiceModule {
  const context: DiscoveryContext = {
    db: deps.db,
    clock: deps.clock,
    config: deps.config,
    logger: deps.logger.child({ service: 'discovery' }),
    ranker: new Ranker(deps.db),
    cursorSecret: cursorSecretLoader(deps.db),
  };
  return {
    name: 'discovery',
    schema: SCHEMA,
    migrations,
    routes: discoveryRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
      ...buyBoxHandlers(context),
      query: queryHandler(context),
      resolve: resolveHandler(context),
      findLeads: findLeadsHandler(context),
    }),
  };
}
