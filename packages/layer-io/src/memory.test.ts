// Memory stays flat whatever the file size: streaming a large layer, the heap after a full
// collection grows by far less than the features read would take if anything held them.
// (The 1,000,000-feature run is the bench: src/bench/stream-memory.ts.)

import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readLayer } from './read-layer.js';
import { peakHeapGrowth, writeLargeNdjson, writeLargeShapefile } from './testing/large-files.js';
import { makeTempDir, type TempDir } from './testing/temp-dir.js';

const FEATURES = 200_000;
/** Holding even just the point geometries takes 24 MB here; streaming holds a chunk or two (≈ 3.5 MB measured). */
const BOUND = 10 * 1024 * 1024;

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(async () => {
  await dir.remove();
});

describe('heap while streaming a large layer', () => {
  it(`stays within ${BOUND >> 20} MB for ${FEATURES} NDJSON features`, async () => {
    const file = join(dir.path, 'large.ndjson');
    await writeLargeNdjson(file, FEATURES);
    const { growth, count } = await peakHeapGrowth(readLayer(file), 20_000);
    expect(count).toBe(FEATURES);
    expect(growth).toBeLessThan(BOUND);
  });

  it(`stays within ${BOUND >> 20} MB for ${FEATURES} reprojected Shapefile records`, async () => {
    const stem = join(dir.path, 'large');
    await writeLargeShapefile(stem, FEATURES);
    const { growth, count } = await peakHeapGrowth(readLayer(`${stem}.shp`), 20_000);
    expect(count).toBe(FEATURES);
    expect(growth).toBeLessThan(BOUND);
  });
});
