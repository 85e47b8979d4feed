/**
 * npm run bench:engine-ab — the vector index's search speed, this checkout against another commit's
 * point engine, in ONE process: both versions index the same synthetic layers and answer the same
 * queries (a radius search and a nearest search at each point), round after round, the order
 * alternated each round, CPU time per version (process.cpuUsage), best of the rounds after the
 * first. Run side by side in separate processes, the two versions meet different loads on a
 * shared machine (a pair of `bench:engine` runs swings by ±15 % here); in one process they meet
 * the same load, so their ratio means something even when the machine is busy.
 *
 * Environment: BENCH_AB_REF (required: a commit, e.g. main), BENCH_AB_ROUNDS (10),
 * BENCH_AB_QUERIES (20000). The other commit's packages/point-engine/src is written to a scratch
 * folder beside it (removed at the end) and imported from there.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { layerSource, type LayerSource } from '@landscreen/field-catalog';
import { Hits, rulerAt, VectorLayerIndex, type FeatureInput } from '@landscreen/point-engine';

const REF = process.env.BENCH_AB_REF;
if (!REF) throw new Error('BENCH_AB_REF: the commit to compare with (e.g. main)');
const ROUNDS = Number(process.env.BENCH_AB_ROUNDS ?? 10);
const QUERIES = Number(process.env.BENCH_AB_QUERIES ?? 20_000);
const root = path.resolve(import.meta.dirname, '..');
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 });
const sha = git('rev-parse', '--short', REF).trim();
const scratch = path.join(root, 'packages/point-engine', `.bench-ab-${sha}`);

/** The other commit's engine sources, in a folder of the package so its imports resolve the same. */
function materialise(): void {
  rmSync(scratch, { recursive: true, force: true });
  for (const file of git('ls-tree', '-r', '--name-only', sha, 'packages/point-engine/src').split('\n').filter((f) => f.endsWith('.ts'))) {
    const target = path.join(scratch, path.relative('packages/point-engine/src', file));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, git('show', `${sha}:${file}`));
  }
}

/** A deterministic generator: the same features every run. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => ((state = (Math.imul(state, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

function ring(cx: number, cy: number, radius: number, vertices: number, next: () => number): number[][] {
  const out: number[][] = [];
  for (let v = 0; v < vertices - 1; v++) {
    const angle = (2 * Math.PI * v) / (vertices - 1);
    const r = radius * (0.6 + 0.4 * next());
    out.push([cx + r * Math.cos(angle), cy + r * Math.sin(angle)]);
  }
  out.push(out[0]!);
  return out;
}

/** NWI-like polygons of 24 vertices over a 4° square; every fifth has a hole, every seventh is two parts. */
function* polygons(count: number): Generator<FeatureInput> {
  const next = random(3);
  for (let i = 0; i < count; i++) {
    const [cx, cy, radius] = [-100 + next() * 4, 30 + next() * 4, 0.002 + next() * 0.02];
    const outer = ring(cx, cy, radius, 24, next);
    const rings = i % 5 === 0 ? [outer, ring(cx, cy, radius * 0.3, 8, next).reverse()] : [outer];
    if (i % 7 === 0) yield { geometry: { type: 'MultiPolygon', coordinates: [rings, [ring(cx + 3 * radius, cy, radius / 2, 12, next)]] } };
    else yield { geometry: { type: 'Polygon', coordinates: rings } };
  }
}

/** Wandering lines of 60 vertices: indexed in pieces. */
function* lines(count: number): Generator<FeatureInput> {
  const next = random(5);
  for (let i = 0; i < count; i++) {
    let [x, y] = [-100 + next() * 4, 30 + next() * 4];
    const coordinates: number[][] = [];
    for (let v = 0; v < 60; v++) {
      coordinates.push([x, y]);
      x += (next() - 0.5) * 0.02;
      y += (next() - 0.5) * 0.02;
    }
    yield { geometry: { type: 'LineString', coordinates } };
  }
}

function* points(count: number): Generator<FeatureInput> {
  const next = random(7);
  for (let i = 0; i < count; i++) yield { geometry: { type: 'Point', coordinates: [-100 + next() * 4, 30 + next() * 4] } };
}

interface AnyIndex {
  within(lon: number, lat: number, radiusM: number, ruler: ReturnType<typeof rulerAt>, hits: { count: number; distances: number[] }): void;
  nearest(lon: number, lat: number, ruler: ReturnType<typeof rulerAt>, mask: null): { distance: number } | null;
}

const cpuMs = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
};

/** CPU ms of one pass over the queries, and a checksum of the answers (hit counts, distances). */
function pass(index: AnyIndex, hits: { count: number; distances: number[] }, queries: readonly (readonly [number, number])[]): [number, number] {
  let checksum = 0;
  const started = cpuMs();
  for (const [lon, lat] of queries) {
    const ruler = rulerAt(lat);
    index.within(lon, lat, 2_000, ruler, hits);
    checksum += hits.count;
    for (let h = 0; h < hits.count; h++) checksum += hits.distances[h]!;
    checksum += index.nearest(lon, lat, ruler, null)?.distance ?? 0;
  }
  return [cpuMs() - started, checksum];
}

materialise();
try {
  const other = (await import(path.join(scratch, 'vector-index.ts'))) as { VectorLayerIndex: { build(d: LayerSource, v: string, f: Iterable<FeatureInput>): AnyIndex }; Hits: new () => { count: number; distances: number[] } };
  const next = random(99);
  const queries = Array.from({ length: QUERIES }, () => [-100 + next() * 4, 30 + next() * 4] as const);
  const nwi = layerSource('usfws_nwi' as never);
  const layers: [string, LayerSource, () => Generator<FeatureInput>][] = [
    ['polygons (100,000; holes, multi-part)', { ...nwi, geometry: 'polygons', properties: [] }, () => polygons(100_000)],
    ['lines (20,000 of 60 vertices)', { ...nwi, geometry: 'lines', properties: [] }, () => lines(20_000)],
    ['points (100,000)', { ...nwi, geometry: 'points', properties: [] }, () => points(100_000)],
  ];
  console.log(`npm run bench:engine-ab — ${new Date().toISOString()} — Node ${process.version}, load ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${sha} against this checkout, ${QUERIES.toLocaleString('en-US')} queries (within 2 km + nearest), ${ROUNDS} rounds`);
  console.log(`\n| layer | ${sha}, CPU ms | this checkout, CPU ms | this / ${sha} | answers |`);
  console.log('|---|---:|---:|---:|---|');
  for (const [name, declaration, make] of layers) {
    const theirs = other.VectorLayerIndex.build(declaration, 'ab', make());
    const ours = VectorLayerIndex.build(declaration, 'ab', make());
    const [theirHits, ourHits] = [new other.Hits(), new Hits()];
    const times: [number[], number[]] = [[], []];
    const checksums = new Set<number>();
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [0, 1] : [1, 0];
      for (const which of order) {
        const [ms, checksum] = which === 0 ? pass(theirs, theirHits, queries) : pass(ours as unknown as AnyIndex, ourHits, queries);
        times[which]!.push(ms);
        checksums.add(checksum);
      }
    }
    // The first round warms both up (the optimising compiler): left out.
    const best = (list: number[]) => Math.min(...list.slice(1));
    const [a, b] = [best(times[0]), best(times[1])];
    console.log(`| ${name} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(b / a).toFixed(3)} | ${checksums.size === 1 ? 'identical' : 'DIFFER'} |`);
  }
  console.log(`\nload afterwards ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
