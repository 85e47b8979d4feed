import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { BIN, NODE_FLAGS } from './processes.js';

const run = promisify(execFile);

/** Runs `landscreen <args>` (through the running server when it owns a PGlite data dir). */
export async function landscreen(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, [...NODE_FLAGS, BIN, ...args], { env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
  return stdout;
}
