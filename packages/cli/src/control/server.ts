import { rmSync } from 'node:fs';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { controlSocketPath, type ControlMessage, type ControlRequest } from './protocol.js';

export type RunCommand = (argv: string[], out: (line: string) => void, signal: AbortSignal) => Promise<number>;

/** Serves operator commands on the data directory's control socket (see protocol.ts). */
export async function serveControlSocket(dataDir: string, run: RunCommand): Promise<{ close(): Promise<void> }> {
  const socketPath = controlSocketPath(dataDir);
  rmSync(socketPath, { force: true }); // a stale socket of a process that died
  const server = net.createServer((socket) => {
    const send = (message: ControlMessage) => !socket.destroyed && socket.writable && socket.write(`${JSON.stringify(message)}\n`);
    const cancel = new AbortController();
    let started = false;
    let finished = false;
    // The caller is gone (killed, or its connection dropped): nobody waits for the command, so it stops.
    socket.on('close', () => {
      if (!finished) cancel.abort();
    });
    socket.on('error', () => socket.destroy());
    const lines = createInterface({ input: socket });
    // A caller killed mid-command makes the socket fail (EPIPE, ECONNRESET); readline re-emits that.
    lines.on('error', () => socket.destroy());
    lines.on('line', async (line) => {
      let request: ControlRequest;
      try {
        request = JSON.parse(line) as ControlRequest;
      } catch {
        request = { cancel: true };
      }
      if ('cancel' in request || started) {
        cancel.abort();
        return;
      }
      started = true;
      let code = 1;
      try {
        code = await run(request.argv, (out) => send({ out }), cancel.signal);
      } catch (error) {
        send({ out: `error: ${(error as Error).message}` });
      }
      finished = true;
      send({ exit: code });
      socket.end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(socketPath, { force: true });
      }),
  };
}
