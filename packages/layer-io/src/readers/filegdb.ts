// Esri File Geodatabase (how NWI and FEMA's NFHL ship), a .gdb folder or a zip of one, read
// through GDAL's OpenFileGDB driver: Debian's gdal-bin streamed from ogr2ogr's stdout where it is
// installed, else gdal3.js (WebAssembly, from npm) through a temporary GeoJSON lines file. A zip is
// unpacked to a temporary folder first (the driver needs random access to its tables). GDAL
// reprojects to WGS84 with PROJ from the layer's own CRS definition; a layer without one is read as
// longitude/latitude only when its extent is plausibly that.

import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { assumedLonLat } from '../crs/assumed.js';
import { CrsError, LayerReadError } from '../errors.js';
import type { GdalChoice, ReadLayerOptions } from '../types.js';
import { DEFAULT_IMPORT_LIMITS, type ImportLimits } from '../limits/import-limits.js';
import { openZipArchive } from '../zip/zip-archive.js';
import { checkedGeometry, pickLayer } from './checked-geometry.js';
import type { GdalLayerInfo } from './gdal/gdal-layer-info.js';
import { nativeFeatureLines, nativeGdalAvailable, nativeLayers } from './gdal/native-gdal.js';
import { wasmFeatureFile, wasmLayers } from './gdal/wasm-gdal.js';
import type { ByteCounter, FormatReader, RawFeature } from './raw-feature.js';

export function readFileGdb(path: string, options: ReadLayerOptions, limits: ImportLimits): FormatReader {
  const bytes: ByteCounter = { bytesRead: 0, totalBytes: 0 };
  return { features: features(path, options, bytes, limits), bytes, hasSchema: true };
}

/** Which GDAL reads: gdal-bin when asked or ("auto") when installed, else gdal3.js. */
export function gdalIn(choice: GdalChoice | undefined): 'native' | 'wasm' {
  if (choice === 'wasm') return 'wasm';
  if (choice === 'native' || nativeGdalAvailable()) return 'native';
  return 'wasm';
}

export async function fileGdbLayers(folder: string, choice: GdalChoice | undefined): Promise<GdalLayerInfo[]> {
  return gdalIn(choice) === 'native' ? nativeLayers(folder) : wasmLayers(folder);
}

async function* features(path: string, options: ReadLayerOptions, bytes: ByteCounter, limits: ImportLimits): AsyncGenerator<RawFeature> {
  const source = await openFileGdb(path, limits);
  try {
    const layers = await fileGdbLayers(source.folder, options.gdal);
    const name = pickLayer(path, layers.map((layer) => layer.name), options.layer);
    const info = layers.find((layer) => layer.name === name)!;
    const crsLabel = layerCrsLabel(path, info);
    bytes.totalBytes = await folderSize(source.folder);
    const lines = gdalIn(options.gdal) === 'native' ? nativeFeatureLines(source.folder, name) : wasmLines(await wasmFeatureFile(source.folder, name));
    let index = 0;
    for await (const line of lines) {
      if (line.trim() === '') continue;
      index++;
      const position = { index };
      const feature = JSON.parse(line) as { geometry: unknown; properties: Record<string, unknown> | null };
      // GDAL leaves unset fields out of a feature: every field of the layer is there, null if unset.
      const properties: Record<string, unknown> = {};
      for (const field of info.fields) properties[field.name] = feature.properties?.[field.name] ?? null;
      bytes.bytesRead = info.featureCount > 0 ? Math.min(bytes.totalBytes, Math.round((bytes.totalBytes * index) / info.featureCount)) : 0;
      yield { position, geometry: checkedGeometry(path, feature.geometry, position), properties, toWgs84: null, crsLabel };
    }
    bytes.bytesRead = bytes.totalBytes;
  } finally {
    await source.close();
  }
}

export function layerCrsLabel(path: string, info: GdalLayerInfo): string {
  if (info.srsName !== null) return `${info.srsName} (reprojected to WGS84 by GDAL)`;
  try {
    return assumedLonLat(info.extent, 'the layer has no spatial reference').label;
  } catch (error) {
    if (error instanceof CrsError) throw new LayerReadError(path, `layer ${JSON.stringify(info.name)} ${error.message}`);
    throw error;
  }
}

/** The .gdb folder to hand GDAL: the path itself, or the one a zip holds, unpacked. */
export async function openFileGdb(path: string, limits: ImportLimits = DEFAULT_IMPORT_LIMITS): Promise<{ folder: string; close(): Promise<void> }> {
  if ((await stat(path)).isDirectory()) return { folder: path, close: async () => {} };
  const zip = await openZipArchive(path, limits);
  try {
    const folders = new Set<string>();
    for (const entry of zip.entries) {
      const match = /^(.*?[^/]+\.gdb)\//i.exec(entry.fileName);
      if (match !== null) folders.add(match[1]);
    }
    if (folders.size === 0) throw new LayerReadError(path, 'the zip holds no .gdb folder');
    if (folders.size > 1) throw new LayerReadError(path, `the zip holds ${folders.size} .gdb folders (${[...folders].join(', ')}); zip one per file`);
    const [prefix] = folders;
    const temp = await mkdtemp(join(tmpdir(), 'landscreen-gdb-'));
    const folder = join(temp, prefix.split('/').at(-1)!);
    try {
      await zip.extract(zip.entries.filter((entry) => entry.fileName.startsWith(`${prefix}/`)), folder, `${prefix}/`);
    } catch (error) {
      await rm(temp, { recursive: true, force: true });
      throw error;
    }
    return { folder, close: () => rm(temp, { recursive: true, force: true }) };
  } finally {
    zip.close();
  }
}

async function* wasmLines(file: string): AsyncGenerator<string> {
  try {
    yield* createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  } finally {
    await rm(file, { force: true });
  }
}

async function folderSize(folder: string): Promise<number> {
  let total = 0;
  for (const name of await readdir(folder)) total += (await stat(join(folder, name))).size;
  return total;
}
