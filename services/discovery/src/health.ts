import { healthCheck } from '@landscreen/rpc';
import type { MigrationSet } from '@landscreen/db';
import type { IndexWarmup } from './warm-up.js';
import type { DiscoveryDb } from './schema.js';

/**
 * The Health RPC of discovery: the shared check (database, migrations), and not ready while the
 * current vintages' indexes are still loading (warm-up.ts), with what it is waiting for.
 */
export function discoveryHealth(db: DiscoveryDb, schema: string, migrations: MigrationSet, warmup: IndexWarmup) {
  const base = healthCheck(db, schema, migrations);
  return async () => {
    const health = await base();
    if (!health.ready) return health;
    await warmup.start();
    const warm = warmup.current();
    if (warm.ready) return health;
    return { ...health, ready: false, reason: warm.reason };
  };
}
