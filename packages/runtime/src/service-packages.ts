import { SERVICE_NAMES, type ServiceName } from '@landscreen/config';
import { migrateSchema, type DatabaseHandle, type MigrationSet } from '@landscreen/db';
import type { ServiceFactory } from '@landscreen/rpc';

export interface SchemaMigrations {
  schema: string;
  migrations: MigrationSet;
}

interface ServicePackage extends SchemaMigrations {
  create: ServiceFactory;
}

/**
 * Each service's package, imported only when it is needed: an operator command loads the services
 * it works on, a distributed service process its own (modules.ts loads them all, for the embedded
 * stack).
 */
const SERVICE_PACKAGES: Record<ServiceName, () => Promise<ServicePackage>> = {
  auth: async () => {
    const service = await import('@landscreen/auth-service');
    return { schema: service.SCHEMA, migrations: service.migrations, create: service.createAuthService };
  },
  discovery: async () => {
    const service = await import('@landscreen/discovery-service');
    return { schema: service.SCHEMA, migrations: service.migrations, create: service.createDiscoveryService };
  },
  pipeline: async () => {
    const service = await import('@landscreen/pipeline-service');
    return { schema: service.SCHEMA, migrations: service.migrations, create: service.createPipelineService };
  },
  diligence: async () => {
    const service = await import('@landscreen/diligence-service');
    return { schema: service.SCHEMA, migrations: service.migrations, create: service.createDiligenceService };
  },
  catalog: async () => {
    const service = await import('@landscreen/catalog-service');
    return { schema: service.SCHEMA, migrations: service.migrations, create: service.createCatalogService };
  },
};

export function loadServicePackage(name: ServiceName): Promise<ServicePackage> {
  return SERVICE_PACKAGES[name]();
}

/**
 * Where a service's schema and migrations are loaded from for a command: the catalog's own entry
 * for them, since its main one loads the engine and every layer reader (about 0.7 CPU-seconds,
 * against 0.2 or less for each other service's whole package).
 */
const SERVICE_MIGRATIONS: Partial<Record<ServiceName, () => Promise<SchemaMigrations>>> = {
  catalog: async () => {
    const { SCHEMA, migrations } = await import('@landscreen/catalog-service/schema');
    return { schema: SCHEMA, migrations };
  },
};

/** The schemas and migrations of these services, in service order. */
export async function migrationPlan(names: readonly ServiceName[]): Promise<SchemaMigrations[]> {
  const ordered = SERVICE_NAMES.filter((name) => names.includes(name));
  const services = await Promise.all(ordered.map((name) => SERVICE_MIGRATIONS[name]?.() ?? loadServicePackage(name)));
  return services.map(({ schema, migrations }) => ({ schema, migrations }));
}

/** Applies every module's migrations to its own schema, in the order given. */
export async function migrateModules(database: DatabaseHandle, modules: readonly SchemaMigrations[]): Promise<Record<string, string[]>> {
  const applied: Record<string, string[]> = {};
  for (const module of modules) applied[module.schema] = await migrateSchema(database.db, module.schema, module.migrations);
  return applied;
}
