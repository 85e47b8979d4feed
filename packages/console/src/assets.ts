// The console's files, served by the gateway from memory: the app bundled by esbuild on first
// request (no build step at install, nothing fetched at run time), MapLibre's ESM build and
// stylesheet, and the Census state and county outlines of us-atlas, all from node_modules.

import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleApp } from './bundle.js';

const require = createRequire(import.meta.url);
// The browser code sits beside src/ and dist/ alike, as TypeScript esbuild reads.
const APP_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'app');

export interface ConsoleFile {
  type: string;
  body: Buffer;
  /** A strong ETag of the bytes. */
  etag: string;
}

const JS = 'text/javascript; charset=utf-8';
const CSS = 'text/css; charset=utf-8';
const JSON_TYPE = 'application/json; charset=utf-8';

const MAPLIBRE_DIST = path.join(path.dirname(require.resolve('maplibre-gl/package.json')), 'dist');
const US_ATLAS = path.dirname(require.resolve('us-atlas/package.json'));

/** What /console/{file} serves: its type and how its bytes are read. */
const SOURCES: Record<string, { type: string; read: () => Promise<Buffer> }> = {
  'app.js': { type: JS, read: async () => Buffer.from((await bundleApp(APP_DIR)).js) },
  'app.css': { type: CSS, read: () => readFile(path.join(APP_DIR, 'styles.css')) },
  // MapLibre loads its worker from beside its own module (new URL(..., import.meta.url)).
  'maplibre-gl.mjs': { type: JS, read: () => readFile(path.join(MAPLIBRE_DIST, 'maplibre-gl.mjs')) },
  'maplibre-gl-worker.mjs': { type: JS, read: () => readFile(path.join(MAPLIBRE_DIST, 'maplibre-gl-worker.mjs')) },
  'maplibre-gl-shared.mjs': { type: JS, read: () => readFile(path.join(MAPLIBRE_DIST, 'maplibre-gl-shared.mjs')) },
  'maplibre-gl.css': { type: CSS, read: () => readFile(path.join(MAPLIBRE_DIST, 'maplibre-gl.css')) },
  'states-10m.json': { type: JSON_TYPE, read: () => readFile(path.join(US_ATLAS, 'states-10m.json')) },
  'counties-10m.json': { type: JSON_TYPE, read: () => readFile(path.join(US_ATLAS, 'counties-10m.json')) },
};

export const CONSOLE_FILES = Object.keys(SOURCES);

/** The console's files, each read (or built) once per process on first request. */
export class ConsoleFiles {
  private readonly files = new Map<string, Promise<ConsoleFile>>();

  /** The file, or undefined for a name the console does not have. */
  get(name: string): Promise<ConsoleFile> | undefined {
    const source = SOURCES[name];
    if (!source) return undefined;
    let file = this.files.get(name);
    if (!file) {
      file = source.read().then((body) => ({ type: source.type, body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` }));
      // A failed build is tried again on the next request rather than remembered.
      file.catch(() => this.files.delete(name));
      this.files.set(name, file);
    }
    return file;
  }
}
