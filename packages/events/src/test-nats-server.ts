import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, Socket } from 'node:net';
import { waitFor } from './test-wait.js';

/** Test support: a private nats-server with JetStream, restartable on the same port and store. */

const NATS_SERVER = process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server';

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = new Socket();
    const settle = (ok: boolean) => () => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', settle(true));
    socket.once('error', settle(false));
    socket.connect(port, '127.0.0.1');
  });
}

export class NatsServerProcess {
  private child: ChildProcess | undefined;

  constructor(
    readonly port: number,
    readonly storeDir: string,
  ) {}

  get url(): string {
    return `nats://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn(NATS_SERVER, ['-js', '-a', '127.0.0.1', '-p', String(this.port), '-sd', this.storeDir], {
      stdio: 'ignore',
    });
    this.child = child;
    let exited = false;
    child.once('exit', () => (exited = true));
    await waitFor(async () => exited || (await accepts(this.port)), `nats-server on port ${this.port}`);
    if (exited) throw new Error(`nats-server exited at start (port ${this.port})`);
  }

  /** SIGKILL: no graceful shutdown, like a crash. Resolves once the process is gone. */
  async kill(): Promise<void> {
    const child = this.child;
    this.child = undefined;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGKILL');
    await gone;
  }
}
