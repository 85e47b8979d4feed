// Streams a layer's features to a file, one at a time with backpressure, so that a layer of a few
// hundred thousand features never sits in memory whole. GeoJSON is one FeatureCollection;
// NDJSON one feature a line; CSV (points only) `lat`,`lon` and the properties as columns.

import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { DemoLayerFeature } from './types.js';

export async function writeFeatures(
  path: string,
  format: 'geojson' | 'ndjson' | 'csv',
  features: Iterable<DemoLayerFeature>,
  csvColumns: readonly string[],
): Promise<number> {
  const out = createWriteStream(path);
  const failed = once(out, 'error').then(([error]) => Promise.reject(error as Error));
  failed.catch(() => {});
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await Promise.race([once(out, 'drain'), failed]);
  };
  let count = 0;
  if (format === 'geojson') await write('{"type":"FeatureCollection","features":[\n');
  if (format === 'csv') await write(`${['lat', 'lon', ...csvColumns].join(',')}\n`);
  for (const feature of features) {
    if (format === 'csv') await write(`${csvRow(feature, csvColumns)}\n`);
    else await write(`${format === 'geojson' && count > 0 ? ',\n' : ''}${featureJson(feature)}${format === 'ndjson' ? '\n' : ''}`);
    count++;
  }
  if (format === 'geojson') await write('\n]}\n');
  await close(out, failed);
  return count;
}

function featureJson(feature: DemoLayerFeature): string {
  return `{"type":"Feature","properties":${JSON.stringify(feature.properties)},"geometry":${JSON.stringify(feature.geometry)}}`;
}

function csvRow(feature: DemoLayerFeature, columns: readonly string[]): string {
  if (feature.geometry.type !== 'Point') throw new Error('a CSV layer holds points only');
  const [lon, lat] = feature.geometry.coordinates;
  return [lat, lon, ...columns.map((column) => csvCell(feature.properties[column]))].join(',');
}

function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

async function close(out: WriteStream, failed: Promise<never>): Promise<void> {
  out.end();
  await Promise.race([once(out, 'finish'), failed]);
}
