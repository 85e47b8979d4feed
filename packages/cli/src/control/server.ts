import { rmSync } from 'node:fs';
import net from 'node:net';
import { createInterface } from 'node:readline';
import { controlSocketPath, type ControlMessage } from './protocol.js';

export type RunCommand = (argv: string[], out: (line: string) => void) => Promise<number>;

/** Serves operator commands on the data directory's control socket (see protocol.ts). */
export async function serveControlSocket(dataDir: string, run: RunCommand): Promise<{ close(): Promise<void> }> {
  const socketPath = controlSocketPath(dataDir);
  rmSync(socketPath, { force: true }); // a stale socket of a process that died
  const server = net.createServer((socket) => {
    const send = (message: ControlMessage) => socket.writable && socket.write(`${JSON.stringify(message)}\n`);
    const lines = createInterface({ input: socket });
    lines.once('line', async (line) => {
      lines.close();
      let code = 1;
      try {
        const { argv } = JSON.parse(line) as { argv: string[] };
        code = await run(argv, (out) => send({ out }));
      } catch (error) {
        send({ out: `error: ${(error as Error).message}` });
      }
      send({ exit: code });
      socket.end();
    });
    socket.on('error', () => socket.destroy());
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
