import type { Config } from '@landscreen/config';
import { startPrepareWorker } from '@landscreen/prepare';
import type { Logger } from '@landscreen/rpc';
import { startBusWorkerProcess } from './bus-worker-process.js';

/**
 * Distributed mode: a prepare worker alone. It takes chunks of `landscreen prepare --workers`
 * from NATS and screens and writes them in PostgreSQL itself (the layers loaded from the catalog
 * schema, the base's parcels and the new vintage's rows in the discovery schema). Run as many as
 * you like, on any machine: they share one durable consumer, and each chunk is written once.
 */
export function startPrepareWorkerProcess(config: Config, logger: Logger) {
  return startBusWorkerProcess(config, 'prepare', (db, bus) =>
    startPrepareWorker({
      db,
      bus,
      logger: logger.child({ component: 'prepare-worker' }),
      ackWaitMs: config.prepare.leaseSeconds * 1000,
      layerCache: { gridCacheBytes: config.grids.cacheMb * 2 ** 20 },
    }),
  );
}
