import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The `landscreen` executable as users run it, so a suite tests the CLI in a process of its own. */
export const LANDSCREEN_BIN = fileURLToPath(new URL('../../packages/cli/bin/landscreen.js', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `landscreen ...args` to completion with `env` over this process's environment. */
export function runLandscreen(args: string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [LANDSCREEN_BIN, ...args], { env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Starts `landscreen serve`; resolves with its address once it logs "landscreen is up". */
export function startLandscreenServer(env: Record<string, string>, timeoutMs = 60_000): { child: ChildProcess; url: Promise<string> } {
  const child = spawn(process.execPath, [LANDSCREEN_BIN, 'serve'], { env: { ...process.env, ...env } });
  const url = new Promise<string>((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${buffer}`)), timeoutMs);
    child.stdout!.on('data', (chunk) => {
      buffer += chunk;
      const line = buffer.split('\n').find((candidate) => candidate.includes('landscreen is up'));
      if (line) {
        clearTimeout(timer);
        resolve(JSON.parse(line).url);
      }
    });
    child.on('exit', (code) => reject(new Error(`server exited with ${code}:\n${buffer}`)));
  });
  return { child, url };
}
