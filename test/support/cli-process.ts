import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * How a suite runs the `landscreen` command in a process of its own: the built command users run
 * (packages/cli/bin/landscreen.js, the build's dist/), with the Node flags of its shebang. The
 * global setup builds it from the current sources before any test runs (test/support/build.ts), so
 * it is never older than the code under test; it starts in about half the CPU time of the same
 * command run from the sources through tsx (docs/benchmarks.md, "The test suite's CPU").
 * No `--conditions=@landscreen/source`: the build resolves the workspaces to their builds.
 */
export const LANDSCREEN_ARGS = ['--max-semi-space-size=64', fileURLToPath(new URL('../../packages/cli/bin/landscreen.js', import.meta.url))];

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts `landscreen ...args` with `env` over this process's environment. */
export function spawnLandscreen(args: string[], env: Record<string, string>): ChildProcess {
  return spawn(process.execPath, [...LANDSCREEN_ARGS, ...args], { env: { ...process.env, ...env } });
}

/** Runs `landscreen ...args` to completion with `env` over this process's environment. */
export function runLandscreen(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawnLandscreen(args, env);
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (chunk) => (stdout += chunk));
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Starts `landscreen serve`; resolves with its address once it logs "landscreen is up", rejects if
 * it exits first. No timer: the wait is on readiness, bounded by the calling hook's timeout.
 */
export function startLandscreenServer(env: Record<string, string>): { child: ChildProcess; url: Promise<string> } {
  const child = spawnLandscreen(['serve'], env);
  const url = new Promise<string>((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk) => {
      buffer += chunk;
      const line = buffer.split('\n').find((candidate) => candidate.includes('landscreen is up'));
      if (line) resolve(JSON.parse(line).url);
    });
    child.stderr!.on('data', (chunk) => (buffer += chunk));
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${buffer}`)));
  });
  return { child, url };
}
