import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { controlSocketPath, type ControlMessage } from './protocol.js';

/**
 * Runs argv inside the running embedded server. Resolves with the exit code, or `undefined`
 * when no server listens on the data directory (the caller then opens the database itself).
 */
export async function runThroughServer(dataDir: string, argv: string[], out: (line: string) => void): Promise<number | undefined> {
  const socket = await connect(controlSocketPath(dataDir));
  if (!socket) return undefined;
  socket.write(`${JSON.stringify({ argv: withAbsoluteFiles(argv) })}\n`);
  let code = 1;
  for await (const line of createInterface({ input: socket })) {
    const message = JSON.parse(line) as ControlMessage;
    if ('out' in message) out(message.out);
    else code = message.exit;
  }
  return code;
}

function connect(socketPath: string): Promise<net.Socket | undefined> {
  return new Promise((resolve) => {
    const socket = net.connect(socketPath);
    socket.once('connect', () => resolve(socket));
    socket.once('error', () => resolve(undefined));
  });
}

/** Options whose value is a path (`import --file`, `demo --layers-dir`). */
const PATH_OPTIONS = ['--file', '--layers-dir'];

/**
 * The server runs the command in its own working directory, so a path option given relative to
 * the caller's is made absolute here, before it leaves the caller.
 */
export function withAbsoluteFiles(argv: readonly string[]): string[] {
  return argv.map((arg, i) => {
    const inline = PATH_OPTIONS.find((option) => arg.startsWith(`${option}=`));
    if (inline) return `${inline}=${path.resolve(arg.slice(inline.length + 1))}`;
    return PATH_OPTIONS.includes(argv[i - 1]) ? path.resolve(arg) : arg;
  });
}
