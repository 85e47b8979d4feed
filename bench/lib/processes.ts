import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * The built `landscreen` command: benchmarks measure the JavaScript users run. The benchmark
 * itself runs from the sources (tsx); the dist/ its processes run is built here, when this module
 * loads, if it is missing or older than the sources (docs/building.md).
 */
export const BIN = fileURLToPath(new URL('../../packages/cli/bin/landscreen.js', import.meta.url));
execFileSync(process.execPath, [fileURLToPath(new URL('../../scripts/build-if-stale.mjs', import.meta.url))], { stdio: 'inherit' });

/** The flags the CLI's shebang gives Node (packages/cli/bin/landscreen.js): the CLI as a user runs it. */
export const NODE_FLAGS = ['--max-semi-space-size=64'];

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

const STALL_RECORDER = fileURLToPath(new URL('./stall-recorder.mjs', import.meta.url));

/**
 * Starts `landscreen <args>` as a child process with extra environment. With BENCH_CPU_PROFILE
 * set to a directory, the child writes a V8 CPU profile there when it stops (Node refuses
 * `--cpu-prof` in NODE_OPTIONS, so this is the way to profile the server under a benchmark), and
 * the stalls of its event loop over 50 ms (stall-recorder.mjs; profile-stalls.mjs reads both).
 */
export function startLandscreen(args: string[], env: Record<string, string>): ChildProcess {
  const dir = process.env.BENCH_CPU_PROFILE;
  const profile = dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, '--import', pathToFileURL(STALL_RECORDER).href] : [];
  return spawn(process.execPath, [...profile, ...NODE_FLAGS, BIN, ...args], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

/** Polls a URL every `intervalMs` until it answers 200, or fails after `timeoutMs`. */
export async function waitUntilReady(url: string, timeoutMs = 60_000, intervalMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms`);
}

export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  // A profiled server writes its profile as it exits: tens of megabytes after a long benchmark.
  const grace = process.env.BENCH_CPU_PROFILE ? 120_000 : 15_000;
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, grace))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}
