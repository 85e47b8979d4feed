import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** tsx-entry.mjs, found from src/ and from dist/ alike (it is not compiled: only the sources need it). */
const TSX_ENTRY = new URL('../src/tsx-entry.mjs', import.meta.url);

/**
 * Starts a worker thread on `entry`, named the way an import names a module: by its compiled
 * `.js` file beside the caller, `startWorker(new URL('./x-worker.js', import.meta.url))`.
 *
 * Built (dist/), that file exists and the worker runs it. From the sources (vitest, tsx) there is
 * only `x-worker.ts`, and worker threads do not inherit the TypeScript loader of the thread that
 * starts them (Node 20), so the worker starts on tsx-entry.mjs, which registers tsx and imports the
 * `.ts` file. The export condition the process runs with (`--conditions=@landscreen/source`) is
 * inherited, so the worker imports the workspaces' sources too.
 */
export function startWorker(entry: URL, options: WorkerOptions = {}): Worker {
  const built = fileURLToPath(entry);
  if (existsSync(built) || !built.endsWith('.js')) return new Worker(entry, options);
  const source = built.replace(/\.js$/, '.ts');
  if (!existsSync(source)) throw new Error(`no worker entry at ${built} (nor its source ${source})`);
  return new Worker(TSX_ENTRY, { ...options, argv: [pathToFileURL(source).href, ...(options.argv ?? [])] });
}
