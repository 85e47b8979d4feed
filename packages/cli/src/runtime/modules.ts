import { SERVICE_NAMES, type ServiceName } from '@landscreen/config';
import { createAuthService } from '@landscreen/auth-service';
import { createCatalogService } from '@landscreen/catalog-service';
import { createDiligenceService } from '@landscreen/diligence-service';
import { createDiscoveryService } from '@landscreen/discovery-service';
import { createPipelineService } from '@landscreen/pipeline-service';
import { migrateSchema, type DatabaseHandle } from '@landscreen/db';
import type { ServiceDeps, ServiceFactory, ServiceModule } from '@landscreen/rpc';

export const SERVICE_FACTORIES: Record<ServiceName, ServiceFactory> = {
  auth: createAuthService,
  discovery: createDiscoveryService,
  pipeline: createPipelineService,
  diligence: createDiligenceService,
  catalog: createCatalogService,
};

export function createModules(deps: ServiceDeps, names: readonly ServiceName[] = SERVICE_NAMES): ServiceModule[] {
  return names.map((name) => SERVICE_FACTORIES[name](deps));
}

/** Applies every module's migrations to its own schema, in service order. */
export async function migrateModules(database: DatabaseHandle, modules: ServiceModule[]): Promise<Record<string, string[]>> {
  const applied: Record<string, string[]> = {};
  for (const module of modules) applied[module.schema] = await migrateSchema(database.db, module.schema, module.migrations);
  return applied;
}
