import os from 'node:os';
import type { Config } from '@landscreen/config';
import { deploymentScope, type DatabaseHandle } from '@landscreen/db';
import { connectNatsBus, openEventBus, scopeBus, type EventBus, type NatsBusOptions } from '@landscreen/events';
import { pgliteDir } from './database.js';

/**
 * BUS_SCOPE, else the database's deployment scope; undefined for none (BUS_SCOPE=none). The
 * in-process bus is this process's alone and needs none.
 */
export async function busScope(config: Config, database: DatabaseHandle | undefined): Promise<string | undefined> {
  if (config.busScope === null) return undefined;
  if (config.busScope !== undefined) return config.busScope;
  if (!database) throw new Error('the bus scope is derived from the database: set DATABASE_URL or BUS_SCOPE');
  return deploymentScope(database.db, database.kind === 'pglite' ? [os.hostname(), pgliteDir(config)] : []);
}

/** This process's bus (NATS with NATS_URL, else in-process), under the deployment's scope. */
export async function openDeploymentBus(config: Config, database: DatabaseHandle): Promise<EventBus> {
  if (!config.natsUrl) return openEventBus(undefined);
  const scope = await busScope(config, database);
  return scopeBus(await connectNatsBus(config.natsUrl), scope);
}

/** NATS under the deployment's scope, for a worker process (which has no in-process bus to use). */
export async function connectDeploymentNats(config: Config, database: DatabaseHandle | undefined, options: NatsBusOptions = {}): Promise<EventBus> {
  const scope = await busScope(config, database);
  return scopeBus(await connectNatsBus(config.natsUrl!, options), scope);
}
