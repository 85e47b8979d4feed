/**
 * npm run bench:cli — how long the `landscreen` command takes to answer, as users run it (the
 * built JavaScript, bin/landscreen.js with its Node flags), each beside `node -e 0` measured in the
 * same rounds: the least any Node command costs on this machine today.
 *   - `landscreen --help`;
 *   - `landscreen plan set …` against PostgreSQL (the command opens the database itself), and
 *     through a running embedded server (the command runs inside it, over the control socket);
 *   - `npm start` on an empty data directory, to GET /readyz 200; and `landscreen serve` alone.
 * Each figure is the median of BENCH_RUNS rounds (default 5): wall time, and the CPU time of the
 * process and everything it started (user + system, from /proc), which a busy machine moves less.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freshDatabase } from './lib/database.js';
import { BIN, NODE_FLAGS, freePort, stop, waitUntilReady } from './lib/processes.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const TICKS_PER_SECOND = 100;

interface Sample {
  wallMs: number;
  cpuMs: number;
}

/** CPU time (ms) of a process and its descendants, live or exited and waited for. */
function treeCpuMs(pid: number): number {
  const children = new Map<number, number[]>();
  const times = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // Fields after the command name (which may hold spaces) start after its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      const ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      times.set(Number(entry), ticks);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  let ticks = 0;
  const visit = (at: number) => {
    ticks += times.get(at) ?? 0;
    for (const child of children.get(at) ?? []) visit(child);
  };
  visit(pid);
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** Runs a command to completion; wall time, and CPU time of it and its children (rusage). */
function runToEnd(command: string, args: string[], env: Record<string, string> = {}): Promise<Sample & { stdout: string }> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const timed = spawn('/usr/bin/time', ['-f', '%U %S', command, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    timed.stdout.on('data', (chunk) => (stdout += chunk));
    timed.stderr.on('data', (chunk) => (stderr += chunk));
    timed.on('exit', (code) => {
      const wallMs = performance.now() - started;
      const cpu = /(\d+\.\d+) (\d+\.\d+)\s*$/.exec(stderr);
      if (code !== 0 || !cpu) return reject(new Error(`${command} ${args.join(' ')} failed (${code}):\n${stdout}${stderr}`));
      resolve({ wallMs, cpuMs: (Number(cpu[1]) + Number(cpu[2])) * 1000, stdout });
    });
  });
}

/** Starts a server; wall and CPU time until GET /readyz answers 200. */
async function startToReady(command: string, args: string[], env: Record<string, string>): Promise<Sample & { child: ChildProcess }> {
  const started = performance.now();
  // Its own process group, so that stopping it reaches npm's children too.
  const child = spawn(command, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'], detached: true });
  await waitUntilReady(`http://127.0.0.1:${env.PORT}/readyz`, 600_000, 20);
  const wallMs = performance.now() - started;
  return { wallMs, cpuMs: treeCpuMs(child.pid!), child };
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows: { what: string; samples: Sample[]; peer: Sample[] }[] = [];

/** RUNS rounds of `measure`, each beside a `node -e 0` run in the same round. */
async function rounds(what: string, measure: () => Promise<Sample>): Promise<void> {
  const samples: Sample[] = [];
  const peer: Sample[] = [];
  for (let round = 0; round < RUNS; round++) {
    peer.push(await runToEnd(process.execPath, ['-e', '0']));
    samples.push(await measure());
  }
  rows.push({ what, samples, peer });
  print(rows.at(-1)!);
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
function print({ what, samples, peer }: (typeof rows)[number]): void {
  const wall = median(samples.map((s) => s.wallMs));
  const cpu = median(samples.map((s) => s.cpuMs));
  const peerWall = median(peer.map((s) => s.wallMs));
  const peerCpu = median(peer.map((s) => s.cpuMs));
  console.log(`| ${what} | ${seconds(wall)} | ${seconds(cpu)} | ${seconds(peerWall)} | ${seconds(peerCpu)} | ${(wall / peerWall).toFixed(1)} |`);
}

const cli = (args: string[], env: Record<string, string> = {}) => runToEnd(process.execPath, [...NODE_FLAGS, BIN, ...args], { LOG_LEVEL: 'warn', ...env });

console.log(`npm run bench:cli — ${new Date().toISOString()} — ${os.cpus().length} cores, Node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, median of ${RUNS}`);
console.log('| what | wall | CPU | peer `node -e 0` wall | peer CPU | wall ÷ peer |\n|---|---:|---:|---:|---:|---:|');

await rounds('`landscreen --help`', () => cli(['--help']));

{
  const url = await freshDatabase('landscreen_bench_cli');
  const env = { DATABASE_URL: url };
  await cli(['tenant', 'create', '--slug', 'bench-cli', '--name', 'Bench CLI'], env);
  await rounds('`landscreen plan set` (PostgreSQL)', () => cli(['plan', 'set', '--tenant', 'bench-cli', '--plan', 'build'], env));
}

{
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-bench-cli-'));
  const env = { DATA_DIR: dataDir, PORT: String(await freePort()), WORKER_EMBEDDED: '0', RUNS_WORKER_EMBEDDED: '0' };
  const server = spawn(process.execPath, [...NODE_FLAGS, BIN, 'serve'], { env: { ...process.env, LOG_LEVEL: 'warn', ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitUntilReady(`http://127.0.0.1:${env.PORT}/readyz`, 600_000);
    await cli(['tenant', 'create', '--slug', 'bench-cli', '--name', 'Bench CLI'], env);
    await rounds('`landscreen plan set` (through the embedded server)', () => cli(['plan', 'set', '--tenant', 'bench-cli', '--plan', 'build'], env));
  } finally {
    await stop(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

for (const [what, command, args] of [
  ['`npm start` on an empty data dir, to /readyz 200', 'npm', ['start', '--silent']],
  ['`landscreen serve` on an empty data dir, to /readyz 200', process.execPath, [...NODE_FLAGS, BIN, 'serve']],
] as const) {
  await rounds(what, async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-bench-cli-'));
    const started = await startToReady(command, [...args], { DATA_DIR: dataDir, PORT: String(await freePort()), LOG_LEVEL: 'warn' });
    await stopGroup(started.child);
    rmSync(dataDir, { recursive: true, force: true });
    return started;
  });
}
