import type { Config } from '@landscreen/config';
import { createLogger } from '@landscreen/rpc';
import { openDeploymentBus } from '@landscreen/runtime/bus';
import { lockDataDir } from '@landscreen/runtime/data-dir-lock';
import { openConfiguredDatabase } from '@landscreen/runtime/database';
import { migrateModules, migrationPlan } from '@landscreen/runtime/service-packages';
import type { Command } from './command.js';
import { runCommand } from './run.js';

/**
 * Runs a database command in this process: it opens the database and the bus itself, and migrates
 * and loads only the services the command works on.
 */
export async function runOnItsOwn(command: Command, argv: string[], config: Config, out: (line: string) => void): Promise<number> {
  // Operator output goes to stdout; logs only say something when something is wrong.
  const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  try {
    const database = await openConfiguredDatabase(config, 4);
    try {
      const bus = await openDeploymentBus(config, database);
      try {
        // Like the server, a command works on an up-to-date schema (a fresh data dir included).
        await migrateModules(database, await migrationPlan(command.services));
        return await withInterrupts(out, (signal) => runCommand(argv, { config, logger, database, bus, signal }, out));
      } finally {
        await bus.close();
      }
    } finally {
      await database.close();
    }
  } finally {
    unlock();
  }
}

/**
 * Ctrl-C or SIGTERM aborts the command's signal, so an import stops and rolls back before the
 * process leaves (the database and bus are then closed in order); a second one exits at once.
 */
async function withInterrupts(out: (line: string) => void, run: (signal: AbortSignal) => Promise<number>): Promise<number> {
  const cancel = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    if (cancel.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    out('interrupted: cancelling …');
    cancel.abort();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const code = await run(cancel.signal);
    return cancel.signal.aborted && code === 0 ? 130 : code;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
