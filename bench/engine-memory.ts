/**
 * npm run bench:engine-memory — what the catalog's point-data engine holds per million features,
 * the figure the plan for national layers (docs/architecture.md, "How it spreads over machines")
 * starts from. Builds the engine's index of one layer version (`buildVectorLayer`, as the catalog
 * service loads one) from synthetic features in this process: polygons shaped like National
 * Wetlands Inventory polygons (BENCH_VERTICES vertices each, default 24; NWI's two attributes) and
 * points like HIFLD substations (three attributes), at BENCH_FEATURES and half of it (default
 * 400,000), and measures the heap and array buffers it keeps after a full GC. Beside it, the same
 * run's peers: the bare coordinates as float64 (what any index has to keep) and the features as
 * GeoJSON text (what a file or a JSON column holds).
 *
 * The index keeps its arrays on SharedArrayBuffers (so worker threads share them), which
 * `process.memoryUsage().external` does not count (Node 20): their bytes are summed from the
 * index's parts. "After a pass" is measured again once a radius search has been answered at every
 * feature, so that whatever the index makes as features are read (caches) is counted too: a
 * prepare or runs worker reads every feature of a layer over a market.
 */
import os from 'node:os';
import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';
import { buildVectorLayer, Hits, rulerAt, type FeatureInput } from '@landscreen/point-engine';
import type { SourceId } from '@landscreen/field-catalog';

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const FEATURES = Number(process.env.BENCH_FEATURES ?? 400_000);
const VERTICES = Number(process.env.BENCH_VERTICES ?? 24);
const WETLAND_TYPES = ['Freshwater Emergent Wetland', 'Freshwater Forested/Shrub Wetland', 'Freshwater Pond', 'Lake', 'Riverine', 'Estuarine and Marine Wetland'];

/** A deterministic generator: the same features every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function* wetlands(count: number): Generator<FeatureInput> {
  const next = random(7);
  for (let i = 0; i < count; i++) {
    const [cx, cy] = [-124 + next() * 57, 25 + next() * 24];
    const radius = 0.0005 + next() * 0.004;
    const ring: number[][] = [];
    for (let v = 0; v < VERTICES - 1; v++) {
      const angle = (2 * Math.PI * v) / (VERTICES - 1);
      const r = radius * (0.6 + 0.4 * next());
      ring.push([cx + r * Math.cos(angle), cy + r * Math.sin(angle) * 0.8]);
    }
    ring.push(ring[0]!);
    yield {
      geometry: { type: 'Polygon', coordinates: [ring] },
      properties: { wetland_type: WETLAND_TYPES[i % WETLAND_TYPES.length]!, wetland_subtype: `PEM1${'ABCFH'[i % 5]}` },
    };
  }
}

function* substations(count: number): Generator<FeatureInput> {
  const next = random(11);
  for (let i = 0; i < count; i++) {
    yield {
      geometry: { type: 'Point', coordinates: [-124 + next() * 57, 25 + next() * 24] },
      properties: { name: `SUBSTATION ${i}`, max_voltage_kv: [69, 115, 138, 230, 345, 500][i % 6]!, status: i % 17 === 0 ? 'NOT AVAILABLE' : 'IN SERVICE' },
    };
  }
}

/** After the collector, and a turn of the event loop: array buffers' memory is released after their objects are collected. */
const held = async () => {
  for (let round = 0; round < 3; round++) {
    gc();
    await new Promise((resolve) => setImmediate(resolve));
  }
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
};

/** Bytes of the distinct SharedArrayBuffers reachable from `value` (typed arrays, buffers, nested objects). */
function sharedBytes(value: unknown, seen = new Set<unknown>()): number {
  if (value === null || typeof value !== 'object' || seen.has(value)) return 0;
  seen.add(value);
  if (value instanceof SharedArrayBuffer) return value.byteLength;
  if (ArrayBuffer.isView(value)) return value.buffer instanceof SharedArrayBuffer ? sharedBytes(value.buffer, seen) : 0;
  let total = 0;
  for (const inner of Array.isArray(value) ? value : Object.values(value)) total += sharedBytes(inner, seen);
  return total;
}

interface Measured {
  kind: string;
  features: number;
  vertices: number;
  bytes: number;
  /** Held once a radius search has been answered at every feature. */
  afterPassBytes: number;
  coordinateBytes: number;
  geojsonBytes: number;
  buildMs: number;
}

async function measure(kind: string, source: SourceId, make: (count: number) => Generator<FeatureInput>, count: number): Promise<Measured> {
  let geojsonBytes = 0;
  let vertices = 0;
  for (const feature of make(count)) {
    geojsonBytes += Buffer.byteLength(JSON.stringify({ type: 'Feature', ...feature }));
    const geometry = feature.geometry as { type: string; coordinates: unknown };
    vertices += geometry.type === 'Point' ? 1 : (geometry.coordinates as number[][][])[0]!.length;
  }
  const before = await held();
  const started = performance.now();
  // The features stream into the index (as the catalog's chunks do, a page at a time), so what
  // stays after the GC is the index alone.
  let index: ReturnType<typeof buildVectorLayer> | undefined = buildVectorLayer(source, `bench-${kind}`, make(count));
  const buildMs = performance.now() - started;
  const shared = sharedBytes(index.toParts());
  const bytes = (await held()) - before + shared;
  if (index.size !== count) throw new Error('index lost features');
  const hits = new Hits();
  const { boxes } = index.snapshot();
  for (let i = 0; i < count; i++) {
    const lat = (boxes[i * 4 + 1]! + boxes[i * 4 + 3]!) / 2;
    index.within((boxes[i * 4]! + boxes[i * 4 + 2]!) / 2, lat, 50, rulerAt(lat), hits);
  }
  const afterPassBytes = (await held()) - before + shared;
  index = undefined;
  return { kind, features: count, vertices, bytes, afterPassBytes, coordinateBytes: vertices * 16, geojsonBytes, buildMs };
}

const sizes = [Math.floor(FEATURES / 2), FEATURES];
const rows: Measured[] = [];
for (const [kind, source, make] of [
  ['polygons', 'usfws_nwi', wetlands],
  ['points', 'hifld_substations', substations],
] as const) {
  for (const count of sizes) rows.push(await measure(kind, source as SourceId, make, count));
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const perMillion = (row: Measured, bytes: number) => (bytes / row.features) * 1e6;
console.log(`npm run bench:engine-memory — ${new Date().toISOString()} — Node ${process.version}, load ${os.loadavg()[0]!.toFixed(1)}; polygons of ${VERTICES} vertices`);
console.log('\n| layer | features | held by the engine | per million features | bytes per vertex | after a pass: per million | peer: float64 coordinates | peer: GeoJSON text | engine / coordinates | build |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|');
for (const row of rows) {
  console.log(
    `| ${row.kind} | ${row.features.toLocaleString('en-US')} | ${mb(row.bytes)} | ${(perMillion(row, row.bytes) / 2 ** 30).toFixed(2)} GiB | ${(row.bytes / row.vertices).toFixed(0)} | ${(perMillion(row, row.afterPassBytes) / 2 ** 30).toFixed(2)} GiB | ${mb(row.coordinateBytes)} | ${mb(row.geojsonBytes)} | ×${(row.bytes / row.coordinateBytes).toFixed(1)} | ${(row.buildMs / 1000).toFixed(1)} s |`,
  );
}
