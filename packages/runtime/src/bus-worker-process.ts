import { ConfigError, type Config } from '@landscreen/config';
import type { EventBus } from '@landscreen/events';
import type { ProcessDatabase } from '@landscreen/db';
import { connectDeploymentNats } from './bus.js';
import { openConfiguredDatabase } from './database.js';

/**
 * A worker process of the distributed mode (runs, prepare): it needs NATS and PostgreSQL (the
 * in-process bus reaches no other process, PGlite is single-process), opens both, starts the
 * worker on them and closes all three in order — or both, when the worker does not start.
 */
export async function startBusWorkerProcess(
  config: Config,
  kind: string,
  start: (database: ProcessDatabase, bus: EventBus) => Promise<{ stop(): Promise<void> }>,
): Promise<{ close(): Promise<void> }> {
  const problems = [
    ...(config.natsUrl ? [] : [`a ${kind} worker needs NATS_URL (the in-process bus reaches no other process)`]),
    ...(config.databaseUrl ? [] : [`a ${kind} worker needs DATABASE_URL (PGlite is single-process)`]),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  const database = await openConfiguredDatabase(config);
  const bus = await connectDeploymentNats(config, database, { name: `landscreen-${kind}-worker` }).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  try {
    const worker = await start(database.db, bus);
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
