import { createClient, type Client, type Transport } from '@connectrpc/connect';
import type { ServiceName } from '@landscreen/config';
import { authv1, catalogv1, diligencev1, discoveryv1, pipelinev1 } from '@landscreen/proto';

/** A typed Connect client per service: the gateway's only way to reach business logic. */
export interface ServiceClients {
  auth: Client<typeof authv1.AuthService>;
  discovery: Client<typeof discoveryv1.DiscoveryService>;
  pipeline: Client<typeof pipelinev1.PipelineService>;
  diligence: Client<typeof diligencev1.DiligenceService>;
  catalog: Client<typeof catalogv1.CatalogService>;
}

export function createServiceClients(transportFor: (service: ServiceName) => Transport): ServiceClients {
  return {
    auth: createClient(authv1.AuthService, transportFor('auth')),
    discovery: createClient(discoveryv1.DiscoveryService, transportFor('discovery')),
    pipeline: createClient(pipelinev1.PipelineService, transportFor('pipeline')),
    diligence: createClient(diligencev1.DiligenceService, transportFor('diligence')),
    catalog: createClient(catalogv1.CatalogService, transportFor('catalog')),
  };
}
