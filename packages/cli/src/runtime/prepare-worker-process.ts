import { ConfigError, type Config } from '@landscreen/config';
import { connectNatsBus } from '@landscreen/events';
import { startPrepareWorker } from '@landscreen/prepare';
import type { Logger } from '@landscreen/rpc';
import { openConfiguredDatabase } from './database.js';

/**
 * Distributed mode: a prepare worker alone. It takes chunks of `landscreen prepare --workers`
 * from NATS and screens and writes them in PostgreSQL itself (the layers loaded from the catalog
 * schema, the base's parcels and the new vintage's rows in the discovery schema). Run as many as
 * you like, on any machine: they share one durable consumer, and each chunk is written once.
 */
export async function startPrepareWorkerProcess(config: Config, logger: Logger) {
  const problems = [
    ...(config.natsUrl ? [] : ['a prepare worker needs NATS_URL (the in-process bus reaches no other process)']),
    ...(config.databaseUrl ? [] : ['a prepare worker needs DATABASE_URL (PGlite is single-process)']),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  const database = await openConfiguredDatabase(config);
  const bus = await connectNatsBus(config.natsUrl!, { name: 'landscreen-prepare-worker' });
  try {
    const worker = await startPrepareWorker({
      db: database.db,
      bus,
      logger: logger.child({ component: 'prepare-worker' }),
      ackWaitMs: config.prepare.leaseSeconds * 1000,
      layerCache: { gridCacheBytes: config.grids.cacheMb * 2 ** 20 },
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
