import { existsSync } from 'node:fs';
import { ConfigError, loadConfig } from '@landscreen/config';
import { createLogger, systemClock } from '@landscreen/rpc';
import { openEventBus } from '@landscreen/events';
import { COMMANDS, findCommand, type CommandContext } from './commands/index.js';
import { runCommand } from './commands/run.js';
import { serve, SERVE_USAGE } from './commands/serve.js';
import { runThroughServer } from './control/client.js';
import { lockDataDir } from './runtime/data-dir-lock.js';
import { openConfiguredDatabase } from './runtime/database.js';
import { inProcessServices, migrateModules } from './runtime/modules.js';

const out = (line: string) => process.stdout.write(`${line}\n`);

function usage(): string {
  const width = Math.max(...COMMANDS.map((command) => command.words.join(' ').length), 5);
  return [
    'landscreen — operator tool (configuration from the environment; see README)',
    '',
    `  ${'serve'.padEnd(width)}  Run the service (embedded by default). ${SERVE_USAGE}`,
    ...COMMANDS.map((command) => `  ${command.words.join(' ').padEnd(width)}  ${command.summary}`),
  ].join('\n');
}

/** A `.env` in the working directory fills in what the environment does not set already. */
function loadDotEnv(): void {
  if (existsSync('.env')) process.loadEnvFile('.env');
}

export async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help' || argv[0] === '-h') {
    out(usage());
    return argv.length === 0 ? 2 : 0;
  }
  try {
    loadDotEnv();
    const config = loadConfig();
    if (argv[0] === 'serve') {
      return await serve(argv.slice(1), config, createLogger(config.logLevel));
    }
    const found = findCommand(argv);
    if (!found) {
      out(`unknown command: ${argv.join(' ')} (see landscreen --help)`);
      return 2;
    }
    // Operator output goes to stdout; logs only say something when something is wrong.
    const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
    if (found.command.needsDatabase === false) {
      // Reads files only: no database, bus or services (and no waiting for PGlite's owner).
      return await runCommand(argv, { config, logger } as Omit<CommandContext, 'out'>, out);
    }
    if (!config.databaseUrl) {
      const code = await runThroughServer(config.dataDir, argv, out);
      if (code !== undefined) return code;
    }
    const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
    const database = await openConfiguredDatabase(config, 4);
    const bus = await openEventBus(config.natsUrl);
    try {
      // Commands run the services in-process; a service that needs a peer reaches it the same way.
      const { modules, connect } = inProcessServices({ db: database.db, bus, clock: systemClock, config, logger });
      connect();
      // Like the server, a command works on an up-to-date schema (a fresh data dir included).
      await migrateModules(database, modules);
      return await runCommand(argv, { config, logger, database, bus, modules }, out);
    } finally {
      await bus.close();
      await database.close();
      unlock();
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return 1;
  }
}
