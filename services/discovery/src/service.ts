import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { discoveryRoutes } from './connect.js';
import { cursorSecretLoader, type DiscoveryContext } from './context.js';
import { buyBoxHandlers } from './handlers/buy-boxes.js';
import { evaluateParcelHandler } from './handlers/evaluate-parcel.js';
import { findLeadsHandler } from './handlers/find-leads.js';
import { getParcelHandler } from './handlers/get-parcel.js';
import { queryHandler } from './handlers/query.js';
import { resolveHandler } from './handlers/resolve.js';
import { migrations } from './migrations/index.js';
import { Ranker } from './ranking/ranker.js';
import { discoveryDb, SCHEMA } from './schema.js';

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
    // Warm the current vintages' indexes in the background, so the first query after a start does
    // not pay for reading them; queries that come sooner share the same load.
    start: async () => {
      void warmCurrentVintages(context).catch((error) => context.logger.warn({ err: error }, 'could not warm vintage indexes'));
    },
    routes: discoveryRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
      ...buyBoxHandlers(context),
      query: queryHandler(context),
      resolve: resolveHandler(context),
      findLeads: findLeadsHandler(context),
      evaluateParcel: evaluateParcelHandler(context),
      getParcel: getParcelHandler(context),
    }),
  };
}

async function warmCurrentVintages(context: DiscoveryContext): Promise<void> {
  const markets = await discoveryDb(context.db).selectFrom('markets').select('current_vintage_id').where('current_vintage_id', 'is not', null).execute();
  for (const market of markets) await context.ranker.index(market.current_vintage_id!);
}
