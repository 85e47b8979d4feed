/**
 * npm run bench:fetch-writers — the point-data results' one adapter and writers, in memory, on a
 * synthetic engine answer of 1,000 locations x 50 fields (numbers, strings, booleans and nulls in
 * the mix of a demo batch):
 *   1. a run's NDJSON chunk (and fetch/batch's results array): the engine's answer as FetchValues
 *      (EngineAnswer.readRow), then each result object written by ResultWriter — beside a peer:
 *      the same rows as plain objects (EngineAnswer.record) through JSON.stringify, unrounded;
 *   2. prepare's decoding of a page: EngineAnswer.readRow into a Map per location — beside a
 *      peer: EngineAnswer.value(n, f) for every value into the same Maps.
 * Environment: BENCH_ROUNDS (default 200).
 */
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { FIELDS } from '@landscreen/field-catalog';
import { engineFetchValues, ResultWriter } from '@landscreen/fetch-results';
import { EngineAnswer, NULL_REASONS, type FieldValue } from '@landscreen/point-engine';
import type { catalogv1 } from '@landscreen/proto';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const LOCATIONS = 1_000;
const FIELD_NAMES = FIELDS.slice(0, 50).map((field) => field.name);

/** mulberry32: the same answer on every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An answer packed as the engine packs one: kinds 0 null, 1 number, 2 false, 3 true, 4 string (an id into `strings`). */
function syntheticAnswer(): EngineAnswer {
  const random = prng(7);
  const size = LOCATIONS * FIELD_NAMES.length;
  const kinds = new Uint8Array(size);
  const numbers = new Float64Array(size);
  const reasonCodes = new Uint8Array(size);
  const strings = ['PEM', 'PFO', 'industrial', 'agricultural', 'Zone AE', 'X'];
  for (let at = 0; at < size; at++) {
    const roll = random();
    if (roll < 0.6) {
      kinds[at] = 1;
      numbers[at] = random() * 10_000;
    } else if (roll < 0.75) {
      kinds[at] = 4;
      numbers[at] = Math.floor(random() * strings.length);
    } else if (roll < 0.85) kinds[at] = random() < 0.5 ? 2 : 3;
    else reasonCodes[at] = 1 + Math.floor(random() * NULL_REASONS.length);
  }
  return new EngineAnswer(FIELD_NAMES, LOCATIONS, kinds, numbers, strings, reasonCodes, new Uint32Array(size), []);
}

/** Median milliseconds of `ROUNDS` calls (after a tenth as many to warm up). */
function timed(work: () => unknown): number {
  for (let i = 0; i < ROUNDS / 10; i++) work();
  const times: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const answer = syntheticAnswer();
const locations = Array.from({ length: LOCATIONS }, (_, n) => ({ id: `p${n}`, lat: 30 + n / 1e4, lon: -97 - n / 1e4 }));
const values = LOCATIONS * FIELD_NAMES.length;
const perSecond = (ms: number) => `${Math.round(values / (ms / 1000)).toLocaleString('en-US')} values/s`;

const written = timed(() => {
  const writer = new ResultWriter(FIELD_NAMES);
  const results: catalogv1.FetchResult[] = locations.map((location, n) => ({
    $typeName: 'landscreen.catalog.v1.FetchResult',
    id: location.id,
    lat: location.lat,
    lon: location.lon,
    values: engineFetchValues(answer, n),
  }));
  return writer.lines(results);
});
const plain = timed(() => {
  let text = '';
  for (let n = 0; n < LOCATIONS; n++) text += `${JSON.stringify({ ...locations[n], ...answer.record(n) })}\n`;
  return text;
});

/** As prepare's sink (screen-parcels.ts): one object for the page, a location at a time. */
class FactsSink {
  facts = new Map<string, FieldValue>();
  number(f: number, value: number) {
    this.facts.set(FIELD_NAMES[f], value);
  }
  string(f: number, value: string) {
    this.facts.set(FIELD_NAMES[f], value);
  }
  bool(f: number, value: boolean) {
    this.facts.set(FIELD_NAMES[f], value);
  }
  null(f: number) {
    this.facts.set(FIELD_NAMES[f], null);
  }
}
const decoded = timed(() => {
  const sink = new FactsSink();
  for (let n = 0; n < LOCATIONS; n++) {
    sink.facts = new Map();
    answer.readRow(n, sink);
  }
});
const byValue = timed(() => {
  for (let n = 0; n < LOCATIONS; n++) {
    const facts = new Map<string, FieldValue>();
    for (let f = 0; f < FIELD_NAMES.length; f++) facts.set(FIELD_NAMES[f], answer.value(n, f));
  }
});

console.log(`npm run bench:fetch-writers — ${new Date().toISOString().slice(0, 16)}Z — Node ${process.version}, load average ${os.loadavg()[0].toFixed(1)}, ${LOCATIONS} locations x ${FIELD_NAMES.length} fields, median of ${ROUNDS}`);
console.log(`| what | this | ms | peer | ms |`);
console.log(`| --- | --- | ---: | --- | ---: |`);
console.log(`| a chunk's NDJSON (FetchValues + ResultWriter, rounded) | ${perSecond(written)} | ${written.toFixed(2)} | JSON.stringify of EngineAnswer.record, unrounded: ${perSecond(plain)} | ${plain.toFixed(2)} |`);
console.log(`| prepare's decoding (readRow into a Map per location) | ${perSecond(decoded)} | ${decoded.toFixed(2)} | EngineAnswer.value per value: ${perSecond(byValue)} | ${byValue.toFixed(2)} |`);

