import type { ConnectRouter, Transport } from '@connectrpc/connect';
import type { Config, ServiceName } from '@landscreen/config';
import type { MigrationSet, ProcessDatabase } from '@landscreen/db';
import type { EventBus } from '@landscreen/events';
import type { Clock } from './clock.js';
import type { Logger } from './logger.js';

/** What every service factory receives. Handlers never read the environment or open pools. */
export interface ServiceDeps {
  /** The process's database; a service works inside its own schema of it (schemaView). */
  db: ProcessDatabase;
  bus: EventBus;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** How this service reaches another one over Connect: in-process or over the network. */
  peer(service: ServiceName): Transport;
  /** Named points where tests inject a failure (e.g. mid-transaction); a no-op in production. */
  faults?: FaultInjector;
  /**
   * This process is one of several replicas of its service, reached by the others at `url()`
   * (distributed mode; known once the process listens, read when the service starts); absent, it
   * is the only one. Discovery shares its markets among replicas.
   */
  replica?: { url(): string };
}

/** Throws (or rejects) at the point named, to prove a failure there leaves nothing behind. */
export type FaultInjector = (point: string) => void | Promise<void>;

/**
 * A Connect service as the composition root sees it: called in-process (directTransport) or
 * served on its own port, with the schema it owns and the migrations that build that schema.
 */
export interface ServiceModule {
  name: ServiceName;
  schema: string;
  migrations: MigrationSet;
  routes(router: ConnectRouter): void;
  /** Background work (relays, consumers) that runs while the service is up. */
  start?(): Promise<void>;
  stop?(): Promise<void>;
}

export type ServiceFactory = (deps: ServiceDeps) => ServiceModule;
