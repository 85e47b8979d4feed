import { existsSync } from 'node:fs';
import { COMMANDS, findCommand, type CommandContext } from './commands/index.js';
import { SERVE_USAGE } from './commands/serve-usage.js';

// Arguments are parsed before anything heavy is imported: `--help` and a mistyped command answer
// at once, and a command loads only the services it works on (docs/building.md, "A fast CLI").

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
  const found = argv[0] === 'serve' ? undefined : findCommand(argv);
  if (argv[0] !== 'serve' && !found) {
    out(`unknown command: ${argv.join(' ')} (see landscreen --help)`);
    return 2;
  }
  // Every command answers --help with its usage, before any configuration or service is loaded.
  const rest = found?.args ?? argv.slice(1);
  if (rest.includes('--help') || rest.includes('-h')) {
    out(found === undefined ? `Run the service (embedded by default)\n\nusage: ${SERVE_USAGE}` : `${found.command.summary}\n\nusage: ${found.command.usage}`);
    return 0;
  }
  const { ConfigError, loadConfig } = await import('@landscreen/config');
  try {
    loadDotEnv();
    const config = loadConfig();
    if (!found) {
      const { serve } = await import('./commands/serve.js');
      return await serve(argv.slice(1), config);
    }
    if (found.command.needsDatabase === false) {
      // Reads files only: no database, bus or services (and no waiting for PGlite's owner).
      const [{ runCommand }, { createLogger }] = await Promise.all([import('./commands/run.js'), import('@landscreen/rpc')]);
      const logger = createLogger(config.logLevel === 'info' ? 'warn' : config.logLevel);
      return await runCommand(argv, { config, logger } as Omit<CommandContext, 'out'>, out);
    }
    if (!config.databaseUrl) {
      // While the embedded server runs it owns PGlite: the command runs inside it.
      const { runThroughServer } = await import('./control/client.js');
      const code = await runThroughServer(config.dataDir, argv, out);
      if (code !== undefined) return code;
    }
    const { runOnItsOwn } = await import('./commands/on-its-own.js');
    return await runOnItsOwn(found.command, argv, config, out);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      return 2;
    }
    process.stderr.write(`error: ${(error as Error).message}\n`);
    return 1;
  }
}
