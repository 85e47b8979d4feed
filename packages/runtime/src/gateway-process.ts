import type { Config } from '@landscreen/config';
import { createGateway, createServiceClients } from '@landscreen/gateway';
import { networkTransport, systemClock, type Logger } from '@landscreen/rpc';
import { buildId } from './build-info.js';
import { discoveryTransport } from './discovery-transport.js';
import { serviceUrl } from './service-process.js';

/** Distributed mode: the gateway alone, reaching every service over the network. */
export async function startGatewayProcess(config: Config, logger: Logger) {
  // Discovery's replicas share the markets: each call goes to the one holding its market.
  const clients = createServiceClients((name) => (name === 'discovery' ? discoveryTransport(config) : networkTransport(serviceUrl(config, name))));
  const gateway = await createGateway({
    deps: { clients, build: buildId(), clock: systemClock, basemapStyleUrl: config.basemapStyleUrl, metricsToken: config.metrics.token },
    logger,
    reports: { ...config.reports, eager: true },
  });
  const url = await gateway.listen({ host: config.host, port: config.port });
  logger.info({ url, services: config.serviceUrls }, 'gateway is up');
  return { url, close: () => gateway.close() };
}
