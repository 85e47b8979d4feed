import type { ChildProcess } from 'node:child_process';
import net from 'node:net';
import { spawnLandscreen } from './cli-process.js';

/** One process of the distributed mode (`landscreen serve --service …`, `--gateway`), started from the sources. */
export interface Piece {
  label: string;
  child: ChildProcess;
  /** Resolves once the process logged that it is up; rejects if it exits first. */
  up: Promise<void>;
  /** What it wrote (the last 64 KiB), for a failure's message. */
  output(): string;
  /** SIGTERM, and resolves once it exited (a graceful stop). */
  stop(): Promise<void>;
  /** SIGKILL: no goodbye, no cleanup — a machine that died. */
  kill(): Promise<void>;
}

const KEPT_OUTPUT = 64 * 1024;

/**
 * Starts `landscreen serve ...args` with `env` over this process's environment and waits for the
 * JSON log line whose `msg` is `upMessage` — readiness, never a timer.
 */
export function startPiece(label: string, args: string[], env: Record<string, string>, upMessage: string): Piece {
  const child = spawnLandscreen(['serve', ...args], env);
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const up = new Promise<void>((resolve, reject) => {
    let pending = '';
    const read = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-KEPT_OUTPUT);
      pending += chunk.toString();
      const lines = pending.split('\n');
      pending = lines.pop()!;
      if (lines.some((line) => line.includes(`"msg":"${upMessage}"`))) resolve();
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-KEPT_OUTPUT)));
    child.once('exit', (code, signal) => reject(new Error(`${label} exited (${code ?? signal}) before it was up:\n${output}`)));
  });
  up.catch(() => undefined);
  const end = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  return { label, child, up, output: () => output, stop: () => end('SIGTERM'), kill: () => end('SIGKILL') };
}

/** A port nobody listens on now (the OS's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
