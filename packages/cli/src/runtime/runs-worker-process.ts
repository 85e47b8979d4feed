import { startRunsWorker } from '@landscreen/catalog-service';
import { ConfigError, type Config } from '@landscreen/config';
import { connectNatsBus } from '@landscreen/events';
import { systemClock, type Logger } from '@landscreen/rpc';
import { openConfiguredDatabase } from './database.js';
import { discoveryTransport } from './discovery-transport.js';

/**
 * Distributed mode: a runs worker alone (D35). It consumes chunk events from NATS and works in the
 * catalog schema of PostgreSQL itself — leasing, evaluating with the catalog engine (the layers
 * loaded from the database, as the catalog service loads them) and writing results — so it needs
 * both, and DISCOVERY_URL for parcel_record fields (the parcel at each point, as the catalog
 * service finds it). Run as many as you like: they share one durable consumer, and leases keep each chunk
 * with one worker at a time.
 */
export async function startRunsWorkerProcess(config: Config, logger: Logger) {
  const problems = [
    ...(config.natsUrl ? [] : ['a runs worker needs NATS_URL (the in-process bus reaches no other process)']),
    ...(config.databaseUrl ? [] : ['a runs worker needs DATABASE_URL (PGlite is single-process)']),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  const discovery = config.discovery.urls.length > 0 ? discoveryTransport(config) : undefined;
  const database = await openConfiguredDatabase(config);
  const bus = await connectNatsBus(config.natsUrl!, { name: 'landscreen-runs-worker' });
  try {
    const worker = await startRunsWorker({
      db: database.db,
      bus,
      clock: systemClock,
      logger: logger.child({ component: 'runs-worker' }),
      discovery: discovery === undefined ? undefined : () => discovery,
      leaseMs: config.runs.leaseSeconds * 1000,
      concurrency: config.runs.concurrency,
      gridCacheBytes: config.grids.cacheMb * 2 ** 20,
    });
    return {
      close: async () => {
        await worker.stop();
        await bus.close();
        await database.close();
      },
    };
  } catch (error) {
    await bus.close();
    await database.close();
    throw error;
  }
}
