import os from 'node:os';
import type { Config, ServiceName } from '@landscreen/config';
import type { Transport } from '@connectrpc/connect';
import { networkTransport, serveServices, systemClock, type Logger } from '@landscreen/rpc';
import { openDeploymentBus } from './bus.js';
import { openConfiguredDatabase } from './database.js';
import { discoveryTransport } from './discovery-transport.js';
import { loadServicePackage, migrateModules } from './service-packages.js';

/**
 * Distributed mode: one service in its own process, on its own port, speaking Connect and gRPC.
 * It is one replica of its service (run several discovery processes and they share the markets),
 * reached by the others at its advertised address; it serves before its background work starts,
 * so that address is known (and a replica's own port may be 0).
 */
export async function startServiceProcess(name: ServiceName, config: Config, logger: Logger) {
  const { create } = await loadServicePackage(name);
  const database = await openConfiguredDatabase(config);
  const bus = await openDeploymentBus(config, database).catch(async (error: unknown) => {
    await database.close();
    throw error;
  });
  const peers = new Map<ServiceName, Transport>();
  const peer = (service: ServiceName) => {
    let transport = peers.get(service);
    if (!transport) peers.set(service, (transport = service === 'discovery' ? discoveryTransport(config) : networkTransport(serviceUrl(config, service))));
    return transport;
  };
  let port: number | undefined;
  const replica = { url: () => advertisedUrl(config, name, port!) };
  const module = create({ db: database.db, bus, clock: systemClock, config, logger: logger.child({ service: name }), peer, replica });
  let served: Awaited<ReturnType<typeof serveServices>> | undefined;
  try {
    await migrateModules(database, [module]);
    served = await serveServices([module], { host: config.host, port: config.servicePorts[name] });
    port = served.port;
    await module.start?.();
    logger.info({ service: name, port: served.port, url: replica.url(), database: database.describe, bus: bus.kind }, 'service is up');
    return {
      port: served.port,
      // Background work stops first: a discovery replica gives its markets up while it still
      // answers, so calls forwarded to it meanwhile are answered rather than refused.
      close: async () => {
        await module.stop?.();
        await served!.close();
        await bus.close();
        await database.close();
      },
    };
  } catch (error) {
    await served?.close();
    await bus.close();
    await database.close();
    throw error;
  }
}

/** Where a service listens: its *_URL, else its port on this host. */
export function serviceUrl(config: Config, service: ServiceName): string {
  return config.serviceUrls[service] ?? `http://127.0.0.1:${config.servicePorts[service]}`;
}

/**
 * Where the other processes reach this one: DISCOVERY_ADVERTISE_URL for discovery, else HOST and
 * the port — on a host listening on every interface, this machine's first non-loopback IPv4
 * address (a container's address on its network), or its name.
 */
export function advertisedUrl(config: Config, service: ServiceName, port: number): string {
  if (service === 'discovery' && config.discovery.advertiseUrl) return config.discovery.advertiseUrl;
  const everywhere = config.host === '0.0.0.0' || config.host === '::';
  const host = everywhere ? (firstExternalIPv4() ?? os.hostname()) : config.host;
  return `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
}

function firstExternalIPv4(): string | undefined {
  for (const addresses of Object.values(os.networkInterfaces())) {
    for (const address of addresses ?? []) if (address.family === 'IPv4' && !address.internal) return address.address;
  }
  return undefined;
}
