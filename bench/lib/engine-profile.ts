// A driver for profiling the engine (`node --cpu-prof`): the bench's 50 fields over a bench
// database's layers, split per source. Usage:
//   BENCH_PARCELS=1000000 npx tsx bench/lib/engine-profile.ts
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { LayerCache, catalogDb } from '@landscreen/catalog-service';
import { openDatabase } from '@landscreen/db';
import { FIELDS, FIELD_BY_NAME, evaluatorOf } from '@landscreen/field-catalog';
import { ADMIN_DATABASE_URL } from './database.js';
import { BENCH_DB_TIMEOUTS } from './layered-market.js';
import { BENCH_FIELDS, randomPoints } from './engine-fields.js';

const PARCELS = Number(process.env.BENCH_PARCELS ?? 1_000_000);
const POINTS = Number(process.env.BENCH_POINTS ?? 10_000);
const url = new URL(ADMIN_DATABASE_URL);
url.pathname = `/landscreen_bench_engine_${PARCELS}`;
const database = await openDatabase({ databaseUrl: url.toString(), timeouts: BENCH_DB_TIMEOUTS });
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
const e = (await client.query(`select min(lon) w, min(lat) s, max(lon) e, max(lat) n from discovery.parcels where vintage_id = (select current_vintage_id from discovery.markets where slug = 'bench-tx')`)).rows[0];
await client.end();
const cpu0 = process.cpuUsage();
let t = performance.now();
const { engine } = await new LayerCache(catalogDb(database.db)).current();
const loadCpu = process.cpuUsage(cpu0);
console.log(`loaded in ${((performance.now() - t) / 1000).toFixed(1)} s wall, ${((loadCpu.user + loadCpu.system) / 1e6).toFixed(1)} s CPU`);
await database.close();
const locations = randomPoints(POINTS, [e.w, e.s, e.e, e.n], 12);
const cpuMs = (f: () => void, rounds = 5) => {
  let best = Infinity;
  for (let i = 0; i < rounds; i++) {
    const c = process.cpuUsage();
    f();
    const u = process.cpuUsage(c);
    best = Math.min(best, (u.user + u.system) / 1000);
  }
  return best;
};
// PROFILE_FIELDS=all: every field of a layer loaded (what prepare screens, parcel overlays aside).
const loadedSources = new Set(engine.loaded().map((l) => l.source as string));
const ALL = FIELDS.map((f) => f.name).filter((name) => {
  const ev = evaluatorOf(FIELD_BY_NAME.get(name)!) as { kind: string; source?: string; input?: string };
  if (ev.kind === 'parcel_record' || ev.kind === 'parcel_overlay') return false;
  if (ev.kind === 'derived') return true;
  return ev.source === undefined || loadedSources.has(ev.source);
});
const BENCH = process.env.PROFILE_FIELDS === 'all' ? ALL : BENCH_FIELDS;
const plan = engine.plan(BENCH);
for (let i = 0; i < 3; i++) engine.evaluate(locations, plan);
(globalThis as { gc?: () => void }).gc?.();
const total = cpuMs(() => engine.evaluate(locations, plan));
console.log(`all ${BENCH.length} fields: ${total.toFixed(0)} ms CPU, ${Math.round((POINTS * BENCH.length) / total * 1000).toLocaleString('en-US')} /CPU-s`);
const bySource = new Map<string, string[]>();
for (const f of BENCH) {
  const ev = evaluatorOf(FIELD_BY_NAME.get(f)!) as { source?: string; kind: string };
  const key = ev.source ?? ev.kind;
  bySource.set(key, [...(bySource.get(key) ?? []), f]);
}
const rows: [string, number, string][] = [];
for (const [source, fields] of bySource) {
  const p = engine.plan(fields);
  engine.evaluate(locations, p);
  const ms = cpuMs(() => engine.evaluate(locations, p));
  const layer = engine.layer(source as never) as { size?: number; kind: string } | undefined;
  rows.push([source, ms, `${layer?.kind ?? '-'} ${layer?.size ?? ''} ${fields.join(',')}`]);
}
rows.sort((a, b) => b[1] - a[1]);
for (const [s, ms, info] of rows) console.log(`${ms.toFixed(1).padStart(8)} ms  ${s.padEnd(36)} ${info}`);
if (process.env.PROFILE_LOOP) {
  t = performance.now();
  while (performance.now() - t < Number(process.env.PROFILE_LOOP) * 1000) engine.evaluate(locations, plan);
}
