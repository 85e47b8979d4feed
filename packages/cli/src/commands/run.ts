import { findCommand, UsageError, type CommandContext } from './index.js';

/** Runs a database command in a context; shared by the direct CLI and the control socket. */
export async function runCommand(argv: string[], context: Omit<CommandContext, 'out'>, out: (line: string) => void): Promise<number> {
  const found = findCommand(argv);
  if (!found) {
    out(`unknown command: ${argv.join(' ')} (see landscreen --help)`);
    return 2;
  }
  try {
    const implementation = await found.command.load();
    return await implementation.run({ ...context, out }, found.args);
  } catch (error) {
    if (error instanceof UsageError || (error as NodeJS.ErrnoException).code?.startsWith('ERR_PARSE_ARGS')) {
      out(`${(error as Error).message}\nusage: ${found.command.usage}`);
      return 2;
    }
    throw error;
  }
}
