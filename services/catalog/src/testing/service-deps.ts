import { loadConfig } from '@landscreen/config';
import { createLogger, systemClock, type ServiceDeps } from '@landscreen/rpc';

/**
 * What the catalog service needs to be built for a test that calls its routes directly: the
 * database, the default settings (runs read their chunk size), the system clock and a silent
 * logger. No bus and no peers: nothing these tests call publishes or asks another service.
 * `db` is the process's handle, as ServiceDeps carries it: the service makes its catalog view of it.
 */
export function catalogTestDeps(db: ServiceDeps['db']): ServiceDeps {
  return { db, config: loadConfig({}), clock: systemClock, logger: createLogger('silent') } as unknown as ServiceDeps;
}
