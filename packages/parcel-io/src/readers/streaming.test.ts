// Memory stays flat and throughput stays high on big files: each format is generated in a temp
// dir (nothing large is committed), then read while the heap is sampled after every batch.

import { createWriteStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { once } from 'node:events';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toParcelRecord } from '../mapping.js';
import { makeTempDir, type TempDir } from '../testing/files.js';
import type { ParcelFileFormat } from '../types.js';
import { readParcelBatches } from './index.js';

const MB = 1024 * 1024;

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(() => dir.remove());

function ring(i: number): number[][] {
  const lon = -97.9 + (i % 1000) * 0.001;
  const lat = 30.1 + Math.floor(i / 1000) * 0.0005;
  const d = 0.0008;
  return [
    [lon, lat],
    [lon + d, lat],
    [lon + d, lat + d * 0.7],
    [lon + d * 0.5, lat + d],
    [lon, lat + d * 0.8],
    [lon, lat],
  ].map(([x, y]) => [Number(x.toFixed(6)), Number(y.toFixed(6))]);
}

function properties(i: number) {
  return {
    apn: `${String(i).padStart(8, '0')}-12-${i % 97}`,
    address: `${i} North Main Street, Suite ${i % 9}`,
    owner_name: `Owner "${i}" Holdings LLC`,
    zoning: 'AG-1',
    land_use: 'Agricultural',
    assessed_value_usd: 100_000 + i,
    nearest_substation_distance_m: 1234.5 + i,
    within_floodplain_polygon: i % 2 === 0,
    legal_description: `LOT ${i % 40} BLK ${String.fromCharCode(65 + (i % 26))} RIVER OAKS SUBDIVISION PHASE ${i % 5}`,
    note: 'braces { } brackets [ ] and an escaped "quote"\nover two lines',
  };
}

const featureJson = (i: number) =>
  JSON.stringify({ type: 'Feature', properties: properties(i), geometry: { type: 'Polygon', coordinates: [ring(i)] } });

function csvLine(i: number): string {
  const p = properties(i);
  const wkt = `POLYGON((${ring(i).map(([x, y]) => `${x} ${y}`).join(', ')}))`;
  const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;
  return [
    p.apn,
    quote(p.address),
    quote(p.owner_name),
    p.zoning,
    p.land_use,
    p.assessed_value_usd,
    p.nearest_substation_distance_m,
    p.within_floodplain_polygon,
    quote(p.legal_description),
    quote(p.note),
    quote(wkt),
  ].join(',');
}

const CSV_COLUMNS = [
  'apn',
  'address',
  'owner_name',
  'zoning',
  'land_use',
  'assessed_value_usd',
  'nearest_substation_distance_m',
  'within_floodplain_polygon',
  'legal_description',
  'note',
  'geometry',
];

/** Writes the file in slabs of 1000 rows, honouring backpressure: generation is streamed too. */
async function generate(format: ParcelFileFormat, count: number): Promise<string> {
  const path = `${dir.path}/big.${format}`;
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  if (format === 'geojson') await write('{"type":"FeatureCollection","name":"big","features":[\n');
  if (format === 'csv') await write(`${CSV_COLUMNS.join(',')}\n`);
  for (let start = 0; start < count; start += 1000) {
    const slab: string[] = [];
    for (let i = start; i < Math.min(count, start + 1000); i++) {
      if (format === 'geojson') slab.push(`${i === 0 ? '' : ',\n'}${featureJson(i)}`);
      else if (format === 'ndjson') slab.push(`${featureJson(i)}\n`);
      else slab.push(`${csvLine(i)}\n`);
    }
    await write(slab.join(''));
  }
  if (format === 'geojson') await write('\n]}\n');
  out.end();
  await once(out, 'finish');
  return path;
}

/** The line each generated row starts on. */
const lineOfRow: Record<ParcelFileFormat, (i: number) => number> = {
  geojson: (i) => i + 2,
  ndjson: (i) => i + 1,
  csv: (i) => 2 + 2 * i, // the note spans two lines
};

/**
 * A full GC on demand (the flag can be set at run time; `gc` then exists in new contexts): heapUsed
 * alone mostly shows how lazily V8 collects, while the heap right after a full GC is what the
 * reader really holds.
 */
function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

/**
 * Reads the whole file. `peakMb`: the largest heapUsed growth seen after any batch (garbage
 * included, as a process monitor would see it). `retainedMb`: the largest growth right after a
 * forced full GC, taken every 25 batches mid-stream: what stays alive while reading.
 */
async function measure(path: string, map: boolean, sampleRetained: boolean) {
  const gc = fullGc();
  gc();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  let retained = base;
  let rows = 0;
  let batches = 0;
  let lastLine = 0;
  let lastProgress = 0;
  const started = performance.now();
  for await (const batch of readParcelBatches(path, { onProgress: (p) => (lastProgress = p.bytesRead / p.totalBytes) })) {
    for (const row of batch) {
      if (map) toParcelRecord(row, 'travis-tx');
      lastLine = row.line;
    }
    rows += batch.length;
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    if (sampleRetained && ++batches % 25 === 0) {
      gc();
      retained = Math.max(retained, process.memoryUsage().heapUsed);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  return {
    rows,
    lastLine,
    lastProgress,
    rate: Math.round(rows / seconds),
    peakMb: (peak - base) / MB,
    retainedMb: (retained - base) / MB,
  };
}

describe('streaming big files', () => {
  const cases: [ParcelFileFormat, number][] = [
    ['geojson', 200_000],
    ['ndjson', 100_000],
    ['csv', 100_000],
  ];
  it.each(cases)('%s: %i parcels with a flat heap', async (format, count) => {
    const path = await generate(format, count);
    const sizeMb = (await stat(path)).size / MB;
    const read = await measure(path, false, false); // timed without forced GCs
    const mapped = await measure(path, true, true);
    console.log(
      `${format}: ${count.toLocaleString('en-US')} rows, ${sizeMb.toFixed(0)} MB file; ` +
        `read ${read.rate.toLocaleString('en-US')} rows/s (heapUsed +${read.peakMb.toFixed(0)} MB at most); ` +
        `read+map ${mapped.rate.toLocaleString('en-US')} rows/s (live heap +${mapped.retainedMb.toFixed(0)} MB at most)`,
    );
    for (const result of [read, mapped]) {
      expect(result.rows).toBe(count);
      expect(result.lastLine).toBe(lineOfRow[format](count - 1));
      expect(result.lastProgress).toBe(1);
    }
    // What the reader keeps alive is a chunk and a batch of rows, whatever the file size.
    expect(mapped.retainedMb).toBeLessThan(32);
    if (format === 'geojson') {
      expect(sizeMb).toBeGreaterThan(100); // the bound means something only next to a bigger file
      expect(read.peakMb).toBeLessThan(100);
    }
  });
});
