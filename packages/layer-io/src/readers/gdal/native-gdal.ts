// Debian's gdal-bin, where it is installed: `ogrinfo` describes the layers and `ogr2ogr` streams
// a layer's features to its stdout as GeoJSON lines, read as they come (native code, and nothing
// written to disk). Optional: without it, gdal3.js does the same in WebAssembly.

import { execFile, spawn, spawnSync } from 'node:child_process';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import { LayerReadError } from '../../errors.js';
import { parseOgrinfoText, type GdalLayerInfo } from './gdal-layer-info.js';
import { GEOJSON_LINES_OPTIONS } from './geojson-lines.js';

let available: boolean | undefined;

export function nativeGdalAvailable(): boolean {
  available ??= spawnSync('ogr2ogr', ['--version'], { stdio: 'ignore' }).status === 0;
  return available;
}

const run = promisify(execFile);

export async function nativeLayers(path: string): Promise<GdalLayerInfo[]> {
  try {
    const { stdout } = await run('ogrinfo', ['-ro', '-so', '-al', '-nomd', path], { maxBuffer: 64 * 2 ** 20 });
    return parseOgrinfoText(stdout);
  } catch (error) {
    throw new LayerReadError(path, `GDAL cannot open it: ${gdalMessage((error as { stderr?: string }).stderr ?? (error as Error).message)}`);
  }
}

/** The layer's features as GeoJSON text lines, in WGS84 (GDAL reprojects a layer with a CRS). */
export async function* nativeFeatureLines(path: string, layer: string): AsyncGenerator<string> {
  const child = spawn('ogr2ogr', [...GEOJSON_LINES_OPTIONS, '/vsistdout/', path, layer], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-4096)));
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  try {
    for await (const line of createInterface({ input: child.stdout, crlfDelay: Infinity })) yield line;
    const code = await exited;
    if (code !== 0) throw new LayerReadError(path, `GDAL failed reading layer ${JSON.stringify(layer)}: ${gdalMessage(stderr)}`);
  } finally {
    if (child.exitCode === null) child.kill();
  }
}

function gdalMessage(text: string): string {
  const lines = text.split('\n').map((line) => line.trim()).filter((line) => line !== '');
  return lines.find((line) => line.startsWith('ERROR')) ?? lines.at(-1) ?? 'no message';
}
