#!/usr/bin/env node
// Runs `tsc -b tsconfig.build.json` when the build in the workspaces' dist/ folders is missing or
// older than their sources, and says so; otherwise returns at once. `npm start` runs it before
// `landscreen serve`, so an edited source or a fresh clone whose `npm ci` skipped scripts still
// starts the code it holds. Loading TypeScript only to learn that nothing changed costs a second
// or more; comparing file times here takes a few milliseconds (docs/building.md).
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SOLUTION = 'tsconfig.build.json';
const SHARED_CONFIGS = ['tsconfig.base.json', 'tsconfig.workspace.json', SOLUTION];

const mtime = (path) => {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
};

/** Test files, which the build leaves out (tsconfig.workspace.json). */
const TEST_FILE = /(?:\.test\.ts|\.test-helper\.ts)$|(?:^|\/)test-[^/]*\.ts$/;

/** The newest modification time of `dir` and the files and folders under it (a deletion moves its folder's). */
function newest(dir) {
  let latest = mtime(dir) ?? 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() && !entry.isDirectory()) continue;
    if (TEST_FILE.test(entry.name)) continue;
    latest = Math.max(latest, mtime(join(entry.parentPath ?? entry.path, entry.name)) ?? 0);
  }
  return latest;
}

const workspacesOf = (root) => JSON.parse(readFileSync(join(root, SOLUTION), 'utf8')).references.map((reference) => reference.path);
const buildInfo = (root, workspace) => join(root, workspace, 'dist', 'tsconfig.tsbuildinfo');

/** Why the build is stale, or undefined when every workspace's build is newer than its inputs. */
export function staleReason(root = ROOT) {
  const workspaces = workspacesOf(root);
  const shared = Math.max(...SHARED_CONFIGS.map((file) => mtime(join(root, file)) ?? 0));
  for (const workspace of workspaces) {
    const dir = join(root, workspace);
    const built = mtime(buildInfo(root, workspace));
    if (built === undefined) return `${workspace} has no build`;
    const inputs = Math.max(shared, newest(join(dir, 'src')), mtime(join(dir, 'package.json')) ?? 0, mtime(join(dir, 'tsconfig.json')) ?? 0);
    if (inputs > built) return `${workspace} changed since it was built`;
  }
  return undefined;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const reason = staleReason();
  if (reason) {
    const started = Date.now();
    process.stdout.write(`building: ${reason}; compiling TypeScript to dist/ (tsc -b ${SOLUTION}) …\n`);
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const { status } = spawnSync(process.execPath, [tsc, '-b', SOLUTION], { cwd: ROOT, stdio: 'inherit' });
    if (status !== 0) {
      process.stderr.write('building: tsc failed (see above)\n');
      process.exit(status ?? 1);
    }
    // tsc -b leaves a workspace's build info as it was when only a file's time changed, or a file
    // it does not compile (a test, a deleted file's folder): marking every build as checked now
    // keeps the next start from asking tsc again.
    const now = new Date();
    for (const workspace of workspacesOf(ROOT)) utimesSync(buildInfo(ROOT, workspace), now, now);
    process.stdout.write(`building: done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  }
}
