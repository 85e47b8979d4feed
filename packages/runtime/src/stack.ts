import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@landscreen/config';
import { startRunsWorker, type RunsWorker } from '@landscreen/catalog-service';
import { startDiligenceWorker, type DiligenceWorker } from '@landscreen/diligence-worker';
import type { DatabaseHandle } from '@landscreen/db';
import type { EventBus } from '@landscreen/events';
import { createGateway, createServiceClients } from '@landscreen/gateway';
import { systemClock, type Clock, type FaultInjector, type Logger, type ServiceModule } from '@landscreen/rpc';
import type { FastifyInstance } from 'fastify';
import { buildId } from './build-info.js';
import { openDeploymentBus } from './bus.js';
import { openConfiguredDatabase, pgliteDir } from './database.js';
import { inProcessServices, migrateModules, MIGRATION_PLAN } from './modules.js';
import { migratedPGliteTemplate } from './pglite-template.js';

export interface EmbeddedStackOptions {
  config: Config;
  logger: Logger;
  /** A database the caller owns (tests); otherwise the configured one is opened and owned here. */
  database?: DatabaseHandle;
  bus?: EventBus;
  clock?: Clock;
  /** Test-only failure points (see FaultInjector). */
  faults?: FaultInjector;
  /** Listen on config.host:config.port (default true); false leaves the gateway un-bound (inject). */
  listen?: boolean;
  /**
   * Also run the diligence worker against this gateway (`landscreen serve` does, unless
   * WORKER_EMBEDDED=0). Without LEGACY_SHARED_SECRET the stack makes a random one, in memory only,
   * for its own worker. Needs `listen`.
   */
  worker?: boolean;
  /**
   * Also run a runs worker (D35) in this process on the stack's database and bus (`landscreen
   * serve` does, unless RUNS_WORKER_EMBEDDED=0), so a run is processed without any set-up.
   */
  runsWorker?: boolean;
  /**
   * Start the gateway's worker threads (PDF rendering, large bodies) with it, fonts parsed, so the
   * first report after a start is not slow (`landscreen serve`); otherwise they start on first use.
   */
  warmWorkers?: boolean;
  /** Encode, decode and compare every message between the gateway and the services (directTransport's checkMessages): the test stack's mode. */
  checkMessages?: boolean;
}

export interface EmbeddedStack {
  config: Config;
  database: DatabaseHandle;
  bus: EventBus;
  modules: ServiceModule[];
  gateway: FastifyInstance;
  /** Base address of the gateway when it listens. */
  url: string;
  close(): Promise<void>;
}

/**
 * The embedded default: every service in-process behind the gateway (directTransport: the
 * implementations called directly), one database, one bus. Migrations run before anything answers.
 */
export async function startEmbeddedStack(options: EmbeddedStackOptions): Promise<EmbeddedStack> {
  const { logger } = options;
  const withWorker = options.worker === true && options.listen !== false;
  const config = withWorker ? withWorkerSecret(options.config) : options.config;
  const started = Date.now();
  const database = options.database ?? (await openOwnDatabase(config, logger));
  const bus = options.bus ?? (await openDeploymentBus(config, database));
  const clock = options.clock ?? systemClock;
  const { modules, peer, connect } = inProcessServices({ db: database.db, bus, clock, config, logger, faults: options.faults }, { checkMessages: options.checkMessages });
  const running: ServiceModule[] = [];
  let gateway: FastifyInstance | undefined;
  let worker: DiligenceWorker | undefined;
  let runsWorker: RunsWorker | undefined;
  const close = async () => {
    // The workers call the gateway or the database, so they stop first.
    await worker?.stop();
    await runsWorker?.stop();
    await gateway?.close();
    for (const module of running.reverse()) await module.stop?.();
    if (!options.bus) await bus.close();
    if (!options.database) await database.close();
  };
  try {
    logger.info('start-up: applying migrations');
    const applied = Object.values(await migrateModules(database, modules)).flat();
    logger.info({ applied: applied.length }, `start-up: migrations ${applied.length === 0 ? 'up to date' : `applied (${applied.length})`}; starting the services`);
    for (const module of modules) {
      await module.start?.();
      running.push(module);
    }
    connect();
    logger.info('start-up: building the gateway');
    gateway = await createGateway({
      deps: { clients: createServiceClients(peer), build: buildId(), clock, basemapStyleUrl: config.basemapStyleUrl, metricsToken: config.metrics.token },
      logger,
      reports: { ...config.reports, eager: options.warmWorkers === true },
    });
    let url = '';
    if (options.listen !== false) url = await gateway.listen({ host: config.host, port: config.port });
    if (withWorker) {
      worker = await startDiligenceWorker({
        bus,
        gatewayUrl: localUrl(url, gateway),
        secret: config.legacySharedSecret!,
        config: config.worker,
        logger: logger.child({ component: 'diligence-worker' }),
      });
    }
    if (options.runsWorker) {
      runsWorker = await startRunsWorker({
        db: database.db,
        bus,
        clock: options.clock ?? systemClock,
        logger: logger.child({ component: 'runs-worker' }),
        discovery: peer,
        leaseMs: config.runs.leaseSeconds * 1000,
        concurrency: config.runs.concurrency,
        gridCacheBytes: config.grids.cacheMb * 2 ** 20,
      });
    }
    logger.info({ url, database: database.describe, bus: bus.kind, ms: Date.now() - started }, 'landscreen is up');
    return { config, database, bus, modules, gateway, url, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * The configured database, saying what it is doing: a new PGlite data directory starts from the
 * migrated template (pglite-template.ts) instead of running initdb.
 */
async function openOwnDatabase(config: Config, logger: Logger): Promise<DatabaseHandle> {
  if (config.databaseUrl) {
    logger.info('start-up: connecting to PostgreSQL');
    return openConfiguredDatabase(config);
  }
  const dir = pgliteDir(config);
  if (existsSync(path.join(dir, 'PG_VERSION'))) {
    logger.info({ dir }, 'start-up: opening the PGlite database');
    return openConfiguredDatabase(config);
  }
  let template: string | undefined;
  try {
    template = await migratedPGliteTemplate(MIGRATION_PLAN, logger);
  } catch (error) {
    // A cache this process may not write (an image's, run as another user): the slow way, then.
    logger.warn({ err: error }, 'start-up: no PGlite template could be written; creating the database with initdb');
  }
  logger.info({ dir, template }, `start-up: new data directory: creating its PGlite database ${template ? 'from the migrated template' : '(initdb)'}`);
  if (!template) return openConfiguredDatabase(config);
  try {
    return await openConfiguredDatabase(config, undefined, template);
  } catch (error) {
    if (existsSync(path.join(dir, 'PG_VERSION'))) throw error;
    logger.warn({ err: error, template }, 'start-up: the template could not be copied; creating the database with initdb');
    return openConfiguredDatabase(config);
  }
}

/** The embedded worker's credential: the configured secret, else a random one for this process only. */
function withWorkerSecret(config: Config): Config {
  if (config.legacySharedSecret) return config;
  return { ...config, legacySharedSecret: randomBytes(32).toString('base64url') };
}

/** Where the worker reaches its own gateway: loopback when the gateway listens on every interface. */
function localUrl(url: string, gateway: FastifyInstance): string {
  const address = gateway.server.address();
  if (address && typeof address === 'object' && (address.address === '0.0.0.0' || address.address === '::')) return `http://127.0.0.1:${address.port}`;
  return url;
}
