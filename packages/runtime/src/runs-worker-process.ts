import { startRunsWorker } from '@landscreen/catalog-service';
import type { Config } from '@landscreen/config';
import { systemClock, type Logger } from '@landscreen/rpc';
import { startBusWorkerProcess } from './bus-worker-process.js';
import { discoveryTransport } from './discovery-transport.js';

/**
 * Distributed mode: a runs worker alone (D35). It consumes chunk events from NATS and works in the
 * catalog schema of PostgreSQL itself — leasing, evaluating with the catalog engine (the layers
 * loaded from the database, as the catalog service loads them) and writing results — so it needs
 * both, and DISCOVERY_URL for parcel_record fields (the parcel at each point, as the catalog
 * service finds it). Run as many as you like: they share one durable consumer, and leases keep each chunk
 * with one worker at a time.
 */
export function startRunsWorkerProcess(config: Config, logger: Logger) {
  const discovery = config.discovery.urls.length > 0 ? discoveryTransport(config) : undefined;
  return startBusWorkerProcess(config, 'runs', (db, bus) =>
    startRunsWorker({
      db,
      bus,
      clock: systemClock,
      logger: logger.child({ component: 'runs-worker' }),
      discovery: discovery === undefined ? undefined : () => discovery,
      leaseMs: config.runs.leaseSeconds * 1000,
      concurrency: config.runs.concurrency,
      gridCacheBytes: config.grids.cacheMb * 2 ** 20,
    }),
  );
}
