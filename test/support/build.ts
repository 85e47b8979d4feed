import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const TSC = require.resolve('typescript/bin/tsc');

/**
 * `tsc -b tsconfig.build.json` at the repository root: brings every workspace's dist/ up to the
 * sources the suite is about to test (a fraction of a CPU-second when nothing changed), so the
 * `landscreen` processes the tests start from the build never run older code. Rejects with the
 * compiler's output when the build fails: a suite must not go on against a stale build.
 */
export function buildFromSources(): Promise<void> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [TSC, '-b', 'tsconfig.build.json'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve();
      reject(new Error(`the build the tests start \`landscreen\` from failed (tsc -b tsconfig.build.json):\n${stdout}${stderr}`));
    });
  });
}
