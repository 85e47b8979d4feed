// The demo's layers: written as files (one per layer source, demo-market's writeDemoLayers) and
// loaded with `landscreen import layer`'s code (importLayer), so the demo's parcels get their
// point data the way a real market does: from layers, through `landscreen prepare`.

import { access, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { importLayer, listVersions, catalogDb } from '@landscreen/catalog-service';
import type { DatabaseHandle } from '@landscreen/db';
import { DEMO_LAYERS_MANIFEST, writeDemoLayers, type DemoLayersManifest } from '@landscreen/demo-market';
import { progressReporter } from '../commands/progress.js';

export interface DemoLayersOptions {
  dir: string;
  market: string;
  seed: number;
  parcels: number;
  out(line: string): void;
}

/**
 * Writes the layer files unless `dir` already holds this market's (same seed and size: the
 * files are deterministic), then imports each one whose source's current version is not already
 * this demo's (its name says which). So a re-run loads nothing twice, and a demo of another seed
 * or size replaces the layers with its own.
 */
export async function loadDemoLayers(db: DatabaseHandle['db'], options: DemoLayersOptions): Promise<void> {
  const { dir, out } = options;
  let manifest = await readManifest(dir);
  if (manifest && manifest.market === options.market && manifest.seed === options.seed && manifest.parcels === options.parcels && (await allPresent(dir, manifest))) {
    out(`layers: using the ${manifest.layers.length} files already in ${dir}`);
  } else {
    const started = Date.now();
    // The manifest goes first and comes back last: files half rewritten are never taken as complete.
    await rm(path.join(dir, DEMO_LAYERS_MANIFEST), { force: true });
    await writeDemoLayers(dir, { parcels: options.parcels, seed: options.seed, market: options.market }, {
      onFile: (file, done, total) => out(`layers: wrote ${path.basename(file.path)} (${done}/${total})`),
    });
    manifest = (await readManifest(dir))!;
    out(`layers: ${manifest.layers.length} files written to ${dir} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }

  const name = `demo ${options.market} seed=${options.seed} parcels=${options.parcels}`;
  const current = new Map<string, string>();
  // Newest first: the first version seen of a source is its current one.
  for (const version of await listVersions(catalogDb(db))) if (!current.has(version.source)) current.set(version.source, version.name);
  const pending = manifest.layers.filter((layer) => current.get(layer.source) !== name);
  if (pending.length < manifest.layers.length) out(`layers: ${manifest.layers.length - pending.length} sources already have this demo's layer as current; not imported again`);
  for (const [i, layer] of pending.entries()) {
    const file = path.join(dir, layer.file);
    const unit = layer.format === 'geotiff' ? 'cells' : 'features';
    const label = `layers: importing ${layer.source} (${i + 1}/${pending.length})`;
    const progress = progressReporter(out, label, 2000, unit);
    // Most layers load in well under a second: a progress line only for those that take longer.
    const started = Date.now();
    const result = await importLayer(catalogDb(db), {
      source: layer.source,
      file,
      format: layer.format,
      name,
      onProgress: ({ features, fraction }) => Date.now() - started > 2000 && progress.update(features, fraction),
    });
    out(`${label}: version ${result.versionId}, ${result.features.toLocaleString('en-US')} ${unit}, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

async function readManifest(dir: string): Promise<DemoLayersManifest | undefined> {
  try {
    return JSON.parse(await readFile(path.join(dir, DEMO_LAYERS_MANIFEST), 'utf8')) as DemoLayersManifest;
  } catch {
    return undefined;
  }
}

async function allPresent(dir: string, manifest: DemoLayersManifest): Promise<boolean> {
  for (const layer of manifest.layers) {
    if (!(await access(path.join(dir, layer.file)).then(() => true, () => false))) return false;
  }
  return true;
}
