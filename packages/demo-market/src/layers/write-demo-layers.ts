// writeDemoLayers: one file per layer source of the catalog, synthetic and deterministic per
// seed, around the demo market's extent, plus a manifest (layers.json) of what to load with
// `landscreen import layer --source SOURCE --file FILE --format FORMAT`.

import { mkdir, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { layerSource } from '@landscreen/field-catalog';
import type { DemoMarketOptions } from '../generate.js';
import { layerContext } from './context.js';
import { DEMO_LAYER_RECIPES, recipeProblems } from './recipes.js';
import type { DemoLayerFile, DemoLayerFormat, LayerContext, LayerRecipe } from './types.js';
import { writeFeatures } from './write-features.js';
import { writeGrid } from './write-grid.js';

export const DEMO_LAYERS_MANIFEST = 'layers.json';

const EXTENSIONS: Record<DemoLayerFormat, string> = { geojson: 'geojson', ndjson: 'ndjson', csv: 'csv', geotiff: 'tif' };

export interface DemoLayersManifest {
  market: string;
  seed: number;
  parcels: number;
  /** File names relative to the manifest's directory. */
  layers: { source: string; file: string; format: DemoLayerFormat; features?: number; cells?: number }[];
}

export interface WriteDemoLayersOptions {
  /** Called after each file, e.g. for a progress line. */
  onFile?: (file: DemoLayerFile, done: number, total: number) => void;
}

export async function writeDemoLayers(dir: string, options: DemoMarketOptions = {}, hooks: WriteDemoLayersOptions = {}): Promise<DemoLayerFile[]> {
  const problems = recipeProblems();
  if (problems.length > 0) throw new Error(`demo layer recipes do not match the catalog: ${problems.join('; ')}`);
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const context = layerContext(options);
  const files: DemoLayerFile[] = [];
  for (const recipe of DEMO_LAYER_RECIPES) {
    const file = await writeLayer(root, recipe, context);
    files.push(file);
    hooks.onFile?.(file, files.length, DEMO_LAYER_RECIPES.length);
  }
  const manifest: DemoLayersManifest = {
    market: context.parcels.market,
    seed: context.seed,
    parcels: context.parcels.parcels,
    layers: files.map(({ source, path, format, features, cells }) => ({ source, file: path.slice(root.length + 1), format, features, cells })),
  };
  await writeFile(join(root, DEMO_LAYERS_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`);
  return files;
}

async function writeLayer(root: string, recipe: LayerRecipe, context: LayerContext): Promise<DemoLayerFile> {
  const path = join(root, `${recipe.source}.${EXTENSIONS[recipe.format]}`);
  let count: { features?: number; cells?: number };
  if (recipe.format === 'geotiff') {
    count = { cells: await writeGrid(path, recipe, context) };
  } else {
    const columns = layerSource(recipe.source).properties.map((p) => p.name);
    count = { features: await writeFeatures(path, recipe.format, recipe.features(context), columns) };
  }
  return { source: recipe.source, path, format: recipe.format, ...count, bytes: (await stat(path)).size };
}
