import net from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { controlSocketPath, type ControlMessage, type ControlRequest } from './protocol.js';

/**
 * Runs argv inside the running embedded server. Resolves with the exit code, or `undefined`
 * when no server listens on the data directory (the caller then opens the database itself).
 */
export async function runThroughServer(dataDir: string, argv: string[], out: (line: string) => void): Promise<number | undefined> {
  const socket = await connect(controlSocketPath(dataDir));
  if (!socket) return undefined;
  const send = (request: ControlRequest) => socket.writable && socket.write(`${JSON.stringify(request)}\n`);
  send({ argv: withAbsoluteFiles(argv) });
  // Ctrl-C or SIGTERM asks the server to cancel the command and waits for its rollback; a second
  // one leaves at once (closing the connection cancels it on the server all the same).
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) {
      socket.destroy();
      return;
    }
    interrupted = true;
    out('interrupted: cancelling the command on the server …');
    send({ cancel: true });
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  let code = 1;
  try {
    for await (const line of createInterface({ input: socket })) {
      const message = JSON.parse(line) as ControlMessage;
      if ('out' in message) out(message.out);
      else code = message.exit;
    }
  } catch {
    // The connection was destroyed by a second interrupt.
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return interrupted && code === 0 ? 130 : code;
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
