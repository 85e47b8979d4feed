import { ConfigError, type Config } from '@landscreen/config';
import { startDiligenceWorker } from '@landscreen/diligence-worker';
import type { Logger } from '@landscreen/rpc';
import { connectDeploymentNats } from './bus.js';
import { openConfiguredDatabase } from './database.js';

/**
 * Distributed mode: the diligence worker alone. It needs NATS (an in-process bus would carry
 * nothing to it from the services) and the legacy shared secret it calls the gateway with (D7).
 * Several of these share the work through the one durable consumer. It works through the gateway,
 * not the database; with BUS_SCOPE=auto it reads the database once, for the bus scope.
 */
export async function startWorkerProcess(config: Config, logger: Logger) {
  const problems = [
    ...(config.natsUrl ? [] : ['a worker process needs NATS_URL (the in-process bus reaches no other process)']),
    ...(config.legacySharedSecret ? [] : ['a worker process needs LEGACY_SHARED_SECRET (the credential it calls the gateway with)']),
    ...(config.busScope !== undefined || config.databaseUrl ? [] : ['BUS_SCOPE=auto needs DATABASE_URL in a worker process (the scope is derived from the database)']),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  const bus = await withScopeDatabase(config, (database) => connectDeploymentNats(config, database, { name: 'landscreen-diligence-worker' }));
  try {
    const worker = await startDiligenceWorker({
      bus,
      gatewayUrl: config.worker.gatewayUrl ?? `http://127.0.0.1:${config.port}`,
      secret: config.legacySharedSecret!,
      config: config.worker,
      logger: logger.child({ component: 'diligence-worker' }),
    });
    return {
      close: async () => {
        await worker.stop();
        await bus.close();
      },
    };
  } catch (error) {
    await bus.close();
    throw error;
  }
}

async function withScopeDatabase<T>(config: Config, run: (database: Awaited<ReturnType<typeof openConfiguredDatabase>> | undefined) => Promise<T>): Promise<T> {
  if (config.busScope !== undefined) return run(undefined);
  const database = await openConfiguredDatabase(config, 1);
  try {
    return await run(database);
  } finally {
    await database.close();
  }
}
