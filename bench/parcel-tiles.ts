/**
 * npm run bench:parcel-tiles — a cold parcel tile's work in one process, without HTTP or the
 * machine's other load between: the demo generator's market (BENCH_PARCELS, default 100,000)
 * indexed as a service holds it, and its densest z10 tiles (BENCH_TILES, default 12) written
 *   - as the service answered before: typed features, protobuf written and read again (the hop to
 *     the gateway), the gateway's encoder;
 *   - as it answers now: encodedParcelTile (world x made from the longitudes as a parcel is
 *     drawn, world y as the index keeps it; a streaming writer), beside the same writer reading
 *     both precomputed (what the index kept before: as many bytes as the degrees), the two
 *     interleaved over BENCH_ROUNDS rounds (default 10) of the tiles, bytes compared;
 * beside geojson-vt (MapLibre's fork) + vt-pbf tiling the same parcels with the same verdicts.
 * Then the stored parcel index: encoded, and read back as a restarted service reads it — in a
 * worker thread (the event loop's longest block meanwhile, beside the same work in this thread),
 * and the parcels paired with a ranking index's rows (one walk of the two key orders, beside a
 * binary search per parcel, the way it was done before).
 */
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import { GeoJSONVT } from '@maplibre/geojson-vt';
import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { generateDemoParcels } from '@landscreen/demo-market';
import { discoveryv1 } from '@landscreen/proto';
import { encodeTile, geometryCommands, LayerWriter, TileProjector, tileBox, tileGeometry, worldCoordinates, WorldPolygonWriter, type FlatPolygon, type TileAddress } from '@landscreen/vector-tiles';
import { ParcelIndexBuilder } from '../services/discovery/src/locate/parcel-index-builder.js';
import { decodeParcelIndex, encodeParcelIndex } from '../services/discovery/src/locate/parcel-index-blob.js';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Hits, rulerAt, VectorLayerIndex } from '@landscreen/point-engine';
import { ParcelIndex } from '../services/discovery/src/locate/parcel-index.js';
import { restoreInWorker } from '../services/discovery/src/locate/restore-in-worker.js';
import { restoreIndex, VintageIndexBuilder } from '../services/discovery/src/ranking/vintage-index.js';
import { Utf8Strings } from '../services/discovery/src/ranking/utf8-strings.js';
import { rowsOfParcels } from '../services/discovery/src/tiles/verdict-map.js';
import { encodedParcelTile, PARCEL_LAYER, parcelTileFeatures } from '../services/discovery/src/tiles/parcel-tile-features.js';
import { VERDICTS } from '../services/discovery/src/tiles/verdict-map.js';
import { percentile } from './lib/measure.js';

const parcels = Number(process.env.BENCH_PARCELS ?? 100_000);
const tiles = Number(process.env.BENCH_TILES ?? 12);
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
const Z = 10;
const VINTAGE = '00000000-0000-4000-8000-00000000be0c';

const features = [...generateDemoParcels({ parcels, pointData: false })];
const builder = new ParcelIndexBuilder(VINTAGE);
features.forEach((feature, i) => builder.add({ parcel_key: `bench-${i}`, geometry: feature.geometry, apn: null, address: null, owner_name: null, zoning: null, acres: null, lat: null, lon: null }));
const stored = builder.finish();
let started = performance.now();
const bytes = Buffer.concat(encodeParcelIndex(stored));
const encodeMs = performance.now() - started;
started = performance.now();
const aligned = Buffer.allocUnsafeSlow(bytes.length);
bytes.copy(aligned);
const index = ParcelIndex.restore(decodeParcelIndex(aligned, VINTAGE));
const restoreMs = performance.now() - started;
console.log(`stored parcel index of ${parcels.toLocaleString('en-US')} parcels: ${(bytes.length / 1048576).toFixed(1)} MB, encoded in ${encodeMs.toFixed(0)} ms, read back in this thread (decode, keys and records packed, keys sorted, tree) in ${restoreMs.toFixed(0)} ms`);
{
  const owned = new Uint8Array(new ArrayBuffer(bytes.length));
  owned.set(bytes);
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const cpu = process.cpuUsage();
  started = performance.now();
  const inWorker = await restoreInWorker([owned], VINTAGE);
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  delay.disable();
  console.log(
    `  the same read back in a worker thread: ${wallMs.toFixed(0)} ms; the event loop's longest block meanwhile ${(delay.max / 1e6).toFixed(1)} ms (process CPU ${((used.user + used.system) / 1000).toFixed(0)} ms, both threads and the worker's start)`,
  );
  // The first point located: the engine's index made from the parts the worker computed (views,
  // no object per parcel), beside building it in this thread from the flat arrays, as the first
  // LocateParcels of a vintage did before.
  const { boxes } = inWorker.flat;
  const points = Array.from({ length: 1_000 }, (_, k) => {
    const id = (k * 7_919) % inWorker.size;
    return [(boxes[id * 4]! + boxes[id * 4 + 2]!) / 2, (boxes[id * 4 + 1]! + boxes[id * 4 + 3]!) / 2] as const;
  });
  started = performance.now();
  const first = inWorker.locate(points[0]![0], points[0]![1], 250);
  const firstMs = performance.now() - started;
  started = performance.now();
  for (const [lon, lat] of points) inWorker.locate(lon, lat, 250);
  const thousandMs = performance.now() - started;
  started = performance.now();
  const inThread = VectorLayerIndex.restore(inWorker.flat);
  const buildMs = performance.now() - started;
  const hits = new Hits();
  inThread.within(points[0]![0], points[0]![1], 0, rulerAt(points[0]![1]), hits);
  if (first === null || !hits.ids.slice(0, hits.count).includes(first.id)) throw new Error('the two engine indexes disagree');
  console.log(
    `  the first point located in it: ${firstMs.toFixed(1)} ms (the engine's index from the worker's parts), 1,000 more ${thousandMs.toFixed(0)} ms; the engine's index built in this thread instead (what the first LocateParcels did before): ${buildMs.toFixed(0)} ms, one block`,
  );
}
{
  // A ranking index over the same keys in another order (as a vintage's two indexes are ordered apart).
  const ranked = new VintageIndexBuilder(VINTAGE);
  const keys = Array.from({ length: index.size }, (_, id) => index.keys.at(id)!).sort((a, b) => (a.length % 7) - (b.length % 7) || (a < b ? 1 : -1));
  for (const key of keys) ranked.add(key, { acres: 1 });
  const built = ranked.build();
  // Its keys as a list (the index read from PostgreSQL) and as UTF-8 bytes decoded when asked (read from the local cache file).
  const packed = Utf8Strings.encode(built.keys);
  for (const [kind, ranking] of [
    ['keys in a list', built],
    ['keys as UTF-8 bytes', restoreIndex(VINTAGE, new Utf8Strings(packed.bytes, packed.ends), built.rowsByKey, new Map())],
  ] as const) {
    started = performance.now();
    const walked = await rowsOfParcels(index, ranking);
    const walkMs = performance.now() - started;
    started = performance.now();
    const searched = new Uint32Array(index.size);
    for (let id = 0; id < index.size; id++) searched[id] = ranking.rowOfKey(index.keys.at(id)!) ?? 0xffffffff;
    const searchMs = performance.now() - started;
    if (!walked.every((row, id) => row === searched[id])) throw new Error('the walk and the binary search disagree');
    console.log(`  parcels paired with ranking rows (the ranking's ${kind}): one walk of both key orders ${walkMs.toFixed(0)} ms, yielding; a binary search per parcel ${searchMs.toFixed(0)} ms, not (the same rows)`);
  }
}

// Two parcels in three eligible, scores spread: about what the bench:console buy box leaves.
const view = { verdict: Uint8Array.from({ length: index.size }, (_, i) => (i % 3 === 0 ? 0 : 1 + (i % 3))), score: Float64Array.from({ length: index.size }, (_, i) => (i * 37) % 101) };

// The densest z10 tiles: count parcels by the tile of their first vertex.
const counts = new Map<string, number>();
for (let id = 0; id < index.size; id++) {
  const lon = index.flat.coords[index.flat.coordStarts[id]! * 2]!;
  const lat = index.flat.coords[index.flat.coordStarts[id]! * 2 + 1]!;
  const x = Math.floor(((lon + 180) / 360) * 2 ** Z);
  const y = Math.floor(((1 - Math.asinh(Math.tan((lat * Math.PI) / 180)) / Math.PI) / 2) * 2 ** Z);
  counts.set(`${x}/${y}`, (counts.get(`${x}/${y}`) ?? 0) + 1);
}
const chosen = [...counts.entries()].sort((a, b) => b[1] - a[1]).slice(0, tiles).map(([key]) => {
  const [x, y] = key.split('/').map(Number);
  return { z: Z, x: x!, y: y! };
});

function before(tile: { z: number; x: number; y: number }): Uint8Array {
  const message = create(discoveryv1.ParcelTileResponseSchema, { etag: 'e', extent: 4096, features: parcelTileFeatures(index, view, tile) });
  const answer = fromBinary(discoveryv1.ParcelTileResponseSchema, toBinary(discoveryv1.ParcelTileResponseSchema, message));
  const drawn = answer.features.map((f) => ({ geometry: { type: f.geometry!.type as 3, paths: f.geometry!.paths.map((p) => p.xy) }, properties: { parcel_key: f.parcelKey, verdict: f.verdict, score: f.score } }));
  return encodeTile([{ name: PARCEL_LAYER, features: drawn }]);
}

function peer(tile: { z: number; x: number; y: number }): Uint8Array {
  const box = tileBox(tile);
  const collection = {
    type: 'FeatureCollection' as const,
    features: index
      .searchBox(box[0], box[1], box[2], box[3])
      .filter((id) => view.verdict[id] !== 0)
      .map((id) => ({ type: 'Feature' as const, geometry: index.parcel(id).geometry, properties: { parcel_key: index.keys.at(id)!, verdict: VERDICTS[view.verdict[id]!], score: view.score[id]! } })),
  };
  const tiler = new GeoJSONVT(collection as any, { maxZoom: tile.z, indexMaxZoom: 0, tolerance: 0, buffer: 64, extent: 4096 });
  const built = tiler.getTile(tile.z, tile.x, tile.y);
  return built ? fromGeojsonVt({ parcels: built }, { version: 2, extent: 4096 }) : new Uint8Array();
}

/** encodedParcelTile as it was while the index kept every vertex's world coordinates (`world`). */
function precomputedWorldTile(world: Float64Array, tile: TileAddress): Uint8Array {
  const box = tileBox(tile);
  const clip = { projector: new TileProjector(tile), box };
  const writer = new LayerWriter(PARCEL_LAYER);
  const inside = new WorldPolygonWriter(tile);
  const { flat } = index;
  const polygon: FlatPolygon = { world, coordStart: 0, paths: flat.paths, pathStart: 0, polygons: flat.polygons, polygonStart: 0, polygonEnd: 0 };
  const clipped: number[] = [];
  const tags = [0, 0, 0, 0, 0, 0];
  let keysNamed = false;
  for (const id of index.searchBox(box[0], box[1], box[2], box[3]).filter((id) => view.verdict[id] !== 0)) {
    const b = id * 4;
    let commands: number[];
    let count: number;
    if (flat.boxes[b]! >= box[0] && flat.boxes[b + 1]! >= box[1] && flat.boxes[b + 2]! <= box[2] && flat.boxes[b + 3]! <= box[3]) {
      polygon.coordStart = flat.coordStarts[id]!;
      polygon.pathStart = flat.pathStarts[id]!;
      polygon.polygonStart = flat.polygonStarts[id]!;
      polygon.polygonEnd = flat.polygonStarts[id + 1]!;
      count = inside.write(polygon);
      commands = inside.commands;
    } else {
      const geometry = tileGeometry(index.shape(id), clip);
      clipped.length = 0;
      count = geometry === null ? 0 : geometryCommands(geometry, clipped).length;
      commands = clipped;
    }
    if (count === 0) continue;
    if (!keysNamed) {
      tags[0] = writer.key('parcel_key');
      tags[2] = writer.key('verdict');
      tags[4] = writer.key('score');
      keysNamed = true;
    }
    tags[1] = writer.value(index.keys.at(id)!);
    tags[3] = writer.value(VERDICTS[view.verdict[id]!]);
    tags[5] = writer.value(view.score[id]!);
    writer.add(3, commands, count, tags);
  }
  return writer.finish();
}

const time = (write: (tile: { z: number; x: number; y: number }) => Uint8Array) => {
  const ms: number[] = [];
  let kb = 0;
  for (const tile of chosen) {
    const t = performance.now();
    kb += write(tile).byteLength / 1024;
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { p50: percentile(ms, 0.5), p99: percentile(ms, 0.99), kb: kb / chosen.length };
};

// One pass of each first, so no row measures the compiler's warm-up.
for (const write of [before, encodedParcelTile.bind(null, index, view), peer]) write(chosen[0]!);
const eligible = chosen.map((tile) => { const b = tileBox(tile); return index.searchBox(b[0], b[1], b[2], b[3]).filter((id) => view.verdict[id] !== 0).length; }).sort((a, b) => a - b);
console.log(`${chosen.length} densest z10 tiles, eligible parcels a tile p50 ${percentile(eligible, 0.5)} (max ${eligible.at(-1)})`);
for (const [name, write] of [
  ['typed features + protobuf both ways + encodeTile (before)', before],
  ['encodedParcelTile (now)', (tile: { z: number; x: number; y: number }) => encodedParcelTile(index, view, tile)],
  ['geojson-vt + vt-pbf, same parcels', peer],
] as const) {
  const r = time(write);
  console.log(`  ${name}: p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ${r.kb.toFixed(0)} KB a tile`);
}
{
  // Both world coordinates kept against y alone (x made per vertex drawn): the same writer,
  // interleaved tile by tile so that the machine's load falls on both alike, which goes first
  // alternating (the second finds the tile's parcels in the CPU's caches).
  const world = worldCoordinates(index.flat.coords);
  const variants = [
    [`encodedParcelTile, x made as drawn, y kept (now: ${(index.worldY.byteLength / 1048576).toFixed(1)} MiB kept)`, (tile: TileAddress) => encodedParcelTile(index, view, tile)],
    [`the same writer on x and y precomputed (before: ${(world.byteLength / 1048576).toFixed(1)} MiB kept)`, (tile: TileAddress) => precomputedWorldTile(world, tile)],
  ] as const;
  const ms = variants.map(() => [] as number[]);
  const cpu = variants.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    for (const tile of chosen) {
      const order = (round + chosen.indexOf(tile)) % 2 === 0 ? [0, 1] : [1, 0];
      const answers: Uint8Array[] = [];
      for (const v of order) {
        const write = variants[v]![1];
        const t = performance.now();
        const c = process.cpuUsage();
        const bytes = write(tile);
        const used = process.cpuUsage(c);
        ms[v]!.push(performance.now() - t);
        cpu[v]! += (used.user + used.system) / 1000;
        answers[v] = bytes;
      }
      if (Buffer.compare(Buffer.from(answers[0]!), Buffer.from(answers[1]!)) !== 0) throw new Error(`the two ways drew tile ${tile.z}/${tile.x}/${tile.y} differently`);
    }
  }
  console.log(`${rounds} rounds of the ${chosen.length} tiles, interleaved, each first in turn (the same bytes each time):`);
  // Each tile's two times were taken a moment apart: their ratio is what load shifts least.
  const ratios = ms[0]!.map((now, i) => now / ms[1]![i]!).sort((a, b) => a - b);
  console.log(`  now / before, the median of the ${ratios.length} paired times: ${percentile(ratios, 0.5).toFixed(3)} (quartiles ${percentile(ratios, 0.25).toFixed(3)}–${percentile(ratios, 0.75).toFixed(3)})`);
  variants.forEach(([name], v) => {
    const sorted = [...ms[v]!].sort((a, b) => a - b);
    console.log(`  ${name}: p50 ${percentile(sorted, 0.5).toFixed(2)} ms, p99 ${percentile(sorted, 0.99).toFixed(2)} ms, ${(cpu[v]! / sorted.length).toFixed(2)} CPU-ms a tile`);
  });
  console.log(`load ${(await import('node:os')).loadavg().map((l) => l.toFixed(1)).join(' ')}`);
}
