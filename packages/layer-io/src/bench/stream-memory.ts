// Bench: streams a generated 1,000,000-feature NDJSON layer and a 1,000,000-record reprojected
// Shapefile through readLayer, printing features/s and the heap's peak growth (after full
// collections) — flat memory means well under 100 MB whatever the count.
//
//   npx tsx packages/layer-io/src/bench/stream-memory.ts [features]

import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readLayer } from '../read-layer.js';
import { peakHeapGrowth, writeLargeNdjson, writeLargeShapefile } from '../testing/large-files.js';

const count = Number(process.argv[2] ?? 1_000_000);
const dir = await mkdtemp(join(tmpdir(), 'layer-io-bench-'));
try {
  const ndjson = join(dir, 'layer.ndjson');
  await writeLargeNdjson(ndjson, count);
  await report('NDJSON', ndjson);
  const stem = join(dir, 'layer');
  await writeLargeShapefile(stem, count);
  await report('Shapefile (EPSG:3857 → WGS84)', `${stem}.shp`);
} finally {
  await rm(dir, { recursive: true, force: true });
}

async function report(label: string, path: string): Promise<void> {
  const { size } = await stat(path);
  const started = performance.now();
  const { growth, count: read } = await peakHeapGrowth(readLayer(path), 50_000);
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `${label}: ${read.toLocaleString('en-US')} features (${(size / 2 ** 20).toFixed(0)} MiB) in ${seconds.toFixed(1)} s ` +
      `(${Math.round(read / seconds).toLocaleString('en-US')}/s), peak heap growth ${(growth / 2 ** 20).toFixed(1)} MiB`,
  );
}
