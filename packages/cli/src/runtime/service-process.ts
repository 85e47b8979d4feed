import type { Config, ServiceName } from '@landscreen/config';
import { openEventBus } from '@landscreen/events';
import { serveServices, systemClock, type Logger } from '@landscreen/rpc';
import { openConfiguredDatabase } from './database.js';
import { SERVICE_FACTORIES, migrateModules } from './modules.js';

/** Distributed mode: one service in its own process, on its own port, speaking Connect and gRPC. */
export async function startServiceProcess(name: ServiceName, config: Config, logger: Logger) {
  const database = await openConfiguredDatabase(config);
  const bus = await openEventBus(config.natsUrl);
  const module = SERVICE_FACTORIES[name]({ db: database.db, bus, clock: systemClock, config, logger: logger.child({ service: name }) });
  try {
    await migrateModules(database, [module]);
    await module.start?.();
    const served = await serveServices([module], { host: config.host, port: config.servicePorts[name] });
    logger.info({ service: name, port: served.port, database: database.describe, bus: bus.kind }, 'service is up');
    return {
      port: served.port,
      close: async () => {
        await served.close();
        await module.stop?.();
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
