import { healthCheck, type ServiceDeps, type ServiceModule } from '@landscreen/rpc';
import { diligenceRoutes } from './connect.js';
import { diligenceHandlers } from './handlers/index.js';
import { migrations } from './migrations/index.js';
import { createOutboxRelay } from './relay/index.js';
import { diligenceDb, SCHEMA } from './schema.js';

export function createDiligenceService(deps: ServiceDeps): ServiceModule {
  // D27: every replica runs a relay; they share the outbox through `for update skip locked`.
  const relay = createOutboxRelay({ ...deps, logger: deps.logger.child({ component: 'outbox-relay' }) }, deps.config.relay);
  return {
    name: 'diligence',
    schema: SCHEMA,
    migrations,
    routes: diligenceRoutes({
      health: healthCheck(deps.db, SCHEMA, migrations),
      ...diligenceHandlers({ db: diligenceDb(deps.db), clock: deps.clock, logger: deps.logger.child({ service: 'diligence' }), faults: deps.faults }),
    }),
    start: async () => relay.start(),
    stop: () => relay.stop(),
  };
}
