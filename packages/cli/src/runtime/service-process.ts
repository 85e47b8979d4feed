import type { Config, ServiceName } from '@landscreen/config';
import type { Transport } from '@connectrpc/connect';
import { openEventBus } from '@landscreen/events';
import { networkTransport, serveServices, systemClock, type Logger } from '@landscreen/rpc';
import { openConfiguredDatabase } from './database.js';
import { loadServicePackage, migrateModules } from './service-packages.js';

/** Distributed mode: one service in its own process, on its own port, speaking Connect and gRPC. */
export async function startServiceProcess(name: ServiceName, config: Config, logger: Logger) {
  const { create } = await loadServicePackage(name);
  const database = await openConfiguredDatabase(config);
  const bus = await openEventBus(config.natsUrl);
  const peers = new Map<ServiceName, Transport>();
  const peer = (service: ServiceName) => {
    let transport = peers.get(service);
    if (!transport) peers.set(service, (transport = networkTransport(serviceUrl(config, service))));
    return transport;
  };
  const module = create({ db: database.db, bus, clock: systemClock, config, logger: logger.child({ service: name }), peer });
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

/** Where a service listens: its *_URL, else its port on this host. */
export function serviceUrl(config: Config, service: ServiceName): string {
  return config.serviceUrls[service] ?? `http://127.0.0.1:${config.servicePorts[service]}`;
}
