// GDAL compiled to WebAssembly (gdal3.js), the reader of FileGDB wherever gdal-bin is not
// installed: npm brings it, nothing native. It mounts the input's folder and its output folder
// through Emscripten's NODEFS, so it reads the file in place and writes its GeoJSON lines to a
// temporary file, never to memory. Its calls run synchronously on the calling thread and it has
// one mount point for inputs, so calls are queued one at a time.

import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type initGdalJs from 'gdal3.js';
import { LayerReadError } from '../../errors.js';
import { fromOgrinfoJson, type GdalLayerInfo } from './gdal-layer-info.js';
import { GEOJSON_LINES_OPTIONS } from './geojson-lines.js';

type Gdal = Awaited<ReturnType<typeof initGdalJs>>;

let gdal: Promise<{ gdal: Gdal; errors: string[] }> | undefined;
let queue: Promise<unknown> = Promise.resolve();

function loaded(): Promise<{ gdal: Gdal; errors: string[] }> {
  gdal ??= (async () => {
    const init = createRequire(import.meta.url)('gdal3.js/node.js') as typeof initGdalJs;
    const errors: string[] = [];
    const dest = mkdtempSync(join(tmpdir(), 'landscreen-gdal-'));
    // The output folder lives as long as the module; its files are deleted as they are read.
    process.once('exit', () => rmSync(dest, { recursive: true, force: true }));
    const instance = await init({ dest, logHandler: () => {}, errorHandler: (message) => errors.push(message) });
    return { gdal: instance, errors };
  })();
  return gdal;
}

/** Runs `work` alone: gdal3.js has one input mount, which a concurrent open would replace. */
function exclusive<T>(work: () => Promise<T>): Promise<T> {
  const next = queue.then(work, work);
  queue = next.catch(() => undefined);
  return next;
}

async function withDataset<T>(path: string, use: (gdal: Gdal, dataset: Parameters<Gdal['close']>[0]) => Promise<T>): Promise<T> {
  return exclusive(async () => {
    const { gdal: instance, errors } = await loaded();
    errors.length = 0;
    const opened = await instance.open(path);
    const dataset = opened.datasets[0];
    if (dataset === undefined) throw new LayerReadError(path, `GDAL cannot open it: ${[...opened.errors, ...errors].join('; ') || 'no driver recognises it'}`);
    try {
      return await use(instance, dataset);
    } catch (error) {
      if (error instanceof LayerReadError) throw error;
      const message = error instanceof Error ? error.message : typeof error === 'object' ? JSON.stringify(error) : String(error);
      throw new LayerReadError(path, `GDAL failed: ${[message, ...errors].join('; ')}`);
    } finally {
      await instance.close(dataset);
    }
  });
}

export function wasmLayers(path: string): Promise<GdalLayerInfo[]> {
  return withDataset(path, async (instance, dataset) => fromOgrinfoJson((await instance.ogrinfo(dataset, ['-so', '-al'])) as never));
}

/** Converts the layer to a GeoJSON lines file in gdal3.js's output folder; the caller deletes it. */
export function wasmFeatureFile(path: string, layer: string): Promise<string> {
  return withDataset(path, async (instance, dataset) => {
    const output = await instance.ogr2ogr(dataset, [...GEOJSON_LINES_OPTIONS, layer], `${basename(path)}-${process.pid}-${Date.now()}`);
    return output.real;
  });
}
