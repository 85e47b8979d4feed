import { SERVICE_NAMES, type ServiceName } from '@landscreen/config';
import * as auth from '@landscreen/auth-service';
import * as catalog from '@landscreen/catalog-service';
import * as diligence from '@landscreen/diligence-service';
import * as discovery from '@landscreen/discovery-service';
import * as pipeline from '@landscreen/pipeline-service';
import type { MigrationSet } from '@landscreen/db';
import type { Transport } from '@connectrpc/connect';
import { deferredTransport, directTransport, type DirectTransportOptions, type ServiceDeps, type ServiceFactory, type ServiceModule } from '@landscreen/rpc';

export const SERVICE_FACTORIES: Record<ServiceName, ServiceFactory> = {
  auth: auth.createAuthService,
  discovery: discovery.createDiscoveryService,
  pipeline: pipeline.createPipelineService,
  diligence: diligence.createDiligenceService,
  catalog: catalog.createCatalogService,
};

/** Each service's schema and migrations, without building the service (templates, tooling). */
export const MIGRATION_PLAN: { schema: string; migrations: MigrationSet }[] = [auth, discovery, pipeline, diligence, catalog].map(
  (service) => ({ schema: service.SCHEMA, migrations: service.migrations }),
);

export function createModules(deps: ServiceDeps, names: readonly ServiceName[] = SERVICE_NAMES): ServiceModule[] {
  return names.map((name) => SERVICE_FACTORIES[name](deps));
}

/**
 * Every service in-process, reaching its peers through one direct transport (the implementations
 * called directly), as the gateway of the embedded default does. `connect()` opens it once the
 * services are up; a peer called before that throws.
 */
export function inProcessServices(deps: Omit<ServiceDeps, 'peer'>, transport: DirectTransportOptions = {}) {
  let direct: Transport | undefined;
  const peer = () =>
    deferredTransport(() => {
      if (!direct) throw new Error('a service called a peer before the services were up');
      return direct;
    });
  const modules = createModules({ ...deps, peer });
  return { modules, peer, connect: () => void (direct = directTransport(modules, transport)) };
}

export { migrateModules } from './service-packages.js';
