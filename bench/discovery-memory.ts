/**
 * npm run bench:discovery-memory — what one prepared vintage costs a discovery replica's memory,
 * per million parcels, by part: the ranking index (keys and their order, number columns, coded
 * columns and their dictionaries, mixed columns) and the parcel index with the engine index the
 * first LocateParcels builds. Each is loaded in this process as a replica loads it and weighed as
 * heap plus array buffers after a full GC (plus the SharedArrayBuffers a worker thread made for
 * it, which process.memoryUsage() here does not see), beside the bytes its typed arrays hold and
 * the parcel index by part as the memory budget counts it. Peer: PostgreSQL's
 * own copy of the vintage (its partition with indexes and TOAST, stored columns, stored shapes).
 * It also counts the columns by the form they are held in (slots of 1, 2 or 4 bytes a row, plain
 * float64 and whether Float32 would hold those exactly, mixed).
 *
 * The market is a prepared demo market (`landscreen demo`, every derived fact) in database
 * BENCH_DATABASE (default landscreen_bench_discovery_memory_<N>), built when absent; BENCH_TEMPLATE
 * names a database to copy instead (e.g. bench:discovery's, which holds the same demo market).
 * BENCH_PARCELS (default 200000), BENCH_MARKET (default bench-tx), BENCH_KEEP=1 keeps the database.
 */
import { open, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runInNewContext } from 'node:vm';
import v8 from 'node:v8';
import pg from 'pg';
import { openDatabase } from '@landscreen/db';
import { compileSpec, normaliseDraft } from '@landscreen/buybox-spec';
import { columnBytes, decodeNumbers, discoveryDb, encodeIndexFile, keyBytes, loadParcelIndex, loadVintageIndex, rank, rankSpecOf, readIndexFile, restoreIndex, specFields, vintageIndexBytes, type VintageIndex } from '@landscreen/discovery-service';
import { landscreen } from './lib/cli.js';
import { ADMIN_DATABASE_URL } from './lib/database.js';
import { discoveryBenchDraft } from './lib/discovery-spec.js';
import { heldBuffers } from '../services/discovery/src/locate/held-buffers.js';

const PARCELS = Number(process.env.BENCH_PARCELS ?? 200_000);
const MARKET = process.env.BENCH_MARKET ?? 'bench-tx';
const database = process.env.BENCH_DATABASE ?? `landscreen_bench_discovery_memory_${PARCELS}`;
const url = new URL(ADMIN_DATABASE_URL);
url.pathname = `/${database}`;
const DATABASE_URL = url.toString();
const MiB = 2 ** 20;
const mib = (bytes: number) => `${(bytes / MiB).toFixed(1)} MiB`;
let parcels = PARCELS;
const perMillion = (bytes: number) => `${((bytes / parcels) * 1e6 / 2 ** 30).toFixed(3)} GiB`;

v8.setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const held = () => {
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
};

const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
await admin.connect();
const started = Date.now();
if ((await admin.query('select 1 from pg_database where datname = $1', [database])).rowCount === 0) {
  if (process.env.BENCH_TEMPLATE) await admin.query(`create database ${database} template ${process.env.BENCH_TEMPLATE}`);
  else {
    await admin.query(`create database ${database}`);
    await landscreen(['demo', '--parcels', String(PARCELS), '--market', MARKET], { DATABASE_URL, AUTH_DEV: '1' });
  }
  console.log(`market ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
const db = new pg.Client({ connectionString: DATABASE_URL });
await db.connect();
const handle = await openDatabase({ databaseUrl: DATABASE_URL, maxConnections: 2 });
try {
  const vintage = await db.query<{ id: string; parcels: number }>(
    'select v.id, v.parcel_count parcels from discovery.markets m join discovery.vintages v on v.id = m.current_vintage_id where m.slug = $1',
    [MARKET],
  );
  const vintageId = vintage.rows[0]!.id;
  parcels = Number(vintage.rows[0]!.parcels);
  const view = discoveryDb(handle.db);
  const cpuBefore = process.cpuUsage();

  const rssAt = () => process.memoryUsage().rss;
  const before = held();
  const rssBefore = rssAt();
  const loadStart = Date.now();
  const ranking = await loadVintageIndex(view, vintageId);
  const rankingMs = Date.now() - loadStart;
  const withRanking = held();
  const rssRanking = rssAt();
  const parcelIndex = await loadParcelIndex(view, vintageId);
  const withParcels = held();
  const rssParcels = rssAt();
  parcelIndex.locate(0, 0, 1);
  const withEngine = held();

  // The ranking index by part: the bytes its typed arrays hold, and its lists as the budget counts them.
  const parts = { keys: keyBytes(ranking), keyOrder: ranking.keyRank.byteLength + ranking.rowsByKey.byteLength, plainNumbers: 0, codedNumbers: 0, codedNumberDictionaries: 0, slots: 0, dictionaries: 0, mixed: 0 };
  const counts = { plainNumbers: 0, codedNumbers: 0, coded: 0, mixed: 0 };
  const widths = new Map<string, number>();
  // What a plain number column would take instead: eight bytes a row (the form before slots).
  let plainFloat32Exact = 0;
  for (const [, column] of ranking.entries()) {
    if (column.kind === 'number') {
      counts.plainNumbers++;
      parts.plainNumbers += columnBytes(column);
      if (column.values.every((value) => value !== value || Math.fround(value) === value)) plainFloat32Exact++;
    } else if (column.kind === 'coded') {
      const numeric = typeof column.dictionary.at(0) === 'number';
      const label = `${numeric ? 'number' : 'other'} slots u${column.slots.BYTES_PER_ELEMENT * 8}`;
      widths.set(label, (widths.get(label) ?? 0) + 1);
      if (numeric) {
        counts.codedNumbers++;
        parts.codedNumbers += column.slots.byteLength;
        parts.codedNumberDictionaries += columnBytes(column) - column.slots.byteLength;
      } else {
        counts.coded++;
        parts.slots += column.slots.byteLength;
        parts.dictionaries += columnBytes(column) - column.slots.byteLength;
      }
    } else {
      counts.mixed++;
      parts.mixed += columnBytes(column);
    }
  }
  const rankingHeld = withRanking - before;
  // SharedArrayBuffers posted from a worker thread are in neither heapUsed nor external here.
  const sharedHeld = [...heldBuffers(parcelIndex)].filter((buffer) => buffer instanceof SharedArrayBuffer).reduce((sum, buffer) => sum + buffer.byteLength, 0);
  const parcelHeld = withParcels - withRanking + sharedHeld;
  const engineHeld = withEngine - withParcels;
  const copy = await postgresCopy(vintageId);
  const rss = process.memoryUsage().rss;

  console.log(`\nnpm run bench:discovery-memory — ${new Date().toISOString()} — ${os.cpus().length} cores, Node ${process.version}, ${parcels.toLocaleString('en-US')} parcels, ${counts.plainNumbers + counts.codedNumbers + counts.coded + counts.mixed} fields, load ${readLoad()}`);
  console.log('\n| part | bytes | per million parcels |\n|---|---:|---:|');
  const row = (name: string, bytes: number) => console.log(`| ${name} | ${mib(bytes)} | ${perMillion(bytes)} |`);
  row('**ranking index (held after GC)**', rankingHeld);
  row(`  keys (budget count)`, parts.keys);
  row(`  key order (keyRank, rowsByKey)`, parts.keyOrder);
  row(`  ${counts.plainNumbers} number columns, plain float64`, parts.plainNumbers);
  row(`  ${counts.codedNumbers} number columns coded: slots`, parts.codedNumbers);
  row(`  ${counts.codedNumbers} number columns coded: dictionaries`, parts.codedNumberDictionaries);
  row(`  ${counts.coded} string, boolean, mixed-scalar columns: slots`, parts.slots);
  row(`  ${counts.coded} string, boolean, mixed-scalar columns: dictionaries (budget count)`, parts.dictionaries);
  row(`  ${counts.mixed} mixed columns (budget count)`, parts.mixed);
  row('**parcel index (held after GC, with its SharedArrayBuffers)**', parcelHeld);
  row('  of which SharedArrayBuffers a worker made (not in process.memoryUsage())', sharedHeld);
  row('  its budget count', parcelIndex.approximateBytes());
  for (const { part, bytes } of parcelIndex.heldParts()) row(`    ${part}`, bytes);
  row('  growth at the first LocateParcels (its engine index is made as it is restored)', engineHeld);
  row('**total held**', rankingHeld + parcelHeld + engineHeld);
  row('peer: PostgreSQL\'s copy of the vintage', copy);
  console.log(`\ncolumns by form: ${[...widths].sort().map(([label, n]) => `${label} ${n}`).join(', ')}, plain float64 ${counts.plainNumbers} (of which Float32-exact ${plainFloat32Exact}), mixed ${counts.mixed}`);
  // Arrays a worker thread made and handed over may escape process.memoryUsage()'s counts: RSS says what they cost.
  console.log(`cross-check, RSS growth after GC: ranking index ${mib(rssRanking - rssBefore)}, parcel index ${mib(rssParcels - rssRanking)}`);
  console.log(`ranking index loaded from PostgreSQL in ${rankingMs} ms; budget count ranking ${mib(vintageIndexBytes(ranking))}, parcel index ${mib(parcelIndex.approximateBytes())}; process ${((process.cpuUsage(cpuBefore).user + process.cpuUsage(cpuBefore).system) / 1e6).toFixed(1)} CPU-s for the loads, RSS ${mib(rss)}, peak RSS ${mib(process.resourceUsage().maxRSS * 1024)}, load ${readLoad()}`);

  // Ranking speed, in this process: the index as loaded beside the same facts in the wider forms
  // (every number column float64, every coded column's slots four bytes), ranked in turn.
  const wide = widened(ranking);
  const specs = [0, 1, 2, 3].map((salt) => rankSpecOf(compileSpec(canonical(salt))));
  const cpuMs = { compact: [] as number[], wide: [] as number[] };
  for (let round = 0; round < 15; round++) {
    for (const [form, index] of [['compact', ranking], ['wide', wide]] as const) {
      const spec = specs[round % specs.length]!;
      const start = process.cpuUsage();
      const result = rank(index, spec);
      const used = process.cpuUsage(start);
      cpuMs[form].push((used.user + used.system) / 1000);
      if (form === 'wide') {
        const other = rank(ranking, spec);
        if (Buffer.compare(Buffer.from(other.rows.buffer), Buffer.from(result.rows.buffer)) !== 0 || Buffer.compare(Buffer.from(other.scores.buffer), Buffer.from(result.scores.buffer)) !== 0)
          throw new Error('the compact index ranks differently from the wide one');
      }
    }
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
  console.log(`rank() of the bench:discovery spec (5 must, 10 preferred, 4 variants), CPU ms median of 15: compact ${median(cpuMs.compact).toFixed(1)}, wide ${median(cpuMs.wide).toFixed(1)}; rows and scores identical byte for byte; load ${readLoad()}`);
  await lazyColumns(ranking, specs[0]!, rankingHeld);
} finally {
  await handle.close();
  await db.end();
  if (process.env.BENCH_KEEP !== '1') await admin.query(`drop database if exists ${database} with (force)`);
  await admin.end();
}

/**
 * The same index as a replica holds it once its local index file is written: opened from the file
 * with only the keys and their order resident, then one ranking of the bench spec (its columns
 * read), then a page's rows read (the other columns' values from the row records). Each as the
 * budget counts it and as heap plus external after GC, beside the index loaded whole.
 */
async function lazyColumns(whole: VintageIndex, spec: ReturnType<typeof rankSpecOf>, wholeHeld: number): Promise<void> {
  const file = path.join(os.tmpdir(), `landscreen-bench-discovery-memory-${process.pid}.index`);
  try {
    const writeStart = process.cpuUsage();
    const writeWall = performance.now();
    const handle = await open(file, 'w');
    for await (const chunk of encodeIndexFile(whole, 'bench')) await handle.write(chunk);
    await handle.close();
    const writeCpu = process.cpuUsage(writeStart);
    const fileBytes = (await open(file, 'r').then(async (read) => [await read.stat(), await read.close()] as const))[0].size;
    console.log(`\nlocal index file (v4, row records included) ${mib(fileBytes)}, written in ${(performance.now() - writeWall).toFixed(0)} ms (${((writeCpu.user + writeCpu.system) / 1000).toFixed(0)} CPU-ms)`);

    const before = held();
    const openWall = performance.now();
    const openCpu = process.cpuUsage();
    const lazy = await readIndexFile(file, whole.vintageId, 'bench');
    const opened = { wall: performance.now() - openWall, cpu: process.cpuUsage(openCpu) };
    const keysHeld = held() - before;
    const keysCount = vintageIndexBytes(lazy);

    const fields = specFields(spec);
    const firstWall = performance.now();
    const firstCpu = process.cpuUsage();
    const columns = await lazy.columnsFor(fields);
    const readMs = performance.now() - firstWall;
    let ranked = rank(lazy, spec, columns);
    const first = { wall: performance.now() - firstWall, cpu: process.cpuUsage(firstCpu) };
    const expected = rank(whole, spec);
    if (Buffer.compare(Buffer.from(ranked.rows.buffer), Buffer.from(expected.rows.buffer)) !== 0 || Buffer.compare(Buffer.from(ranked.scores.buffer), Buffer.from(expected.scores.buffer)) !== 0)
      throw new Error('the lazily read index ranks differently from the whole one');
    const againWall = performance.now();
    ranked = rank(lazy, spec, await lazy.columnsFor(fields));
    const againMs = performance.now() - againWall;
    const pageRows = Array.from({ length: Math.min(50, ranked.rows.length) }, (_, at) => ranked.rows[Math.floor((at * ranked.rows.length) / 50)]!);
    ranked = undefined as unknown as typeof ranked;
    const rankedHeld = held() - before;
    const rankedCount = vintageIndexBytes(lazy);

    const rowsWall = performance.now();
    const values = await lazy.rowValues(pageRows);
    const rowsMs = performance.now() - rowsWall;
    const rowsAgainWall = performance.now();
    await lazy.rowValues(pageRows);
    const rowsAgainMs = performance.now() - rowsAgainWall;
    for (const row of pageRows) for (const field of whole.fields()) if (!Object.is(values(field, row), valueAtOf(whole, field, row))) throw new Error(`row ${row} ${field} differs when read from the row records`);
    const pageHeld = held() - before;
    const pageCount = vintageIndexBytes(lazy);

    const row = (name: string, count: number, heldBytes: number) => console.log(`| ${name} | ${mib(count)} | ${perMillion(count)} | ${mib(heldBytes)} | ${perMillion(heldBytes)} |`);
    console.log('\n| ranking index | budget count | per million | held after GC | per million |\n|---|---:|---:|---:|---:|');
    row('loaded whole (from PostgreSQL)', vintageIndexBytes(whole), wholeHeld);
    row('from the local file: keys and their order only', keysCount, keysHeld);
    row(`  after one ranking of the bench spec (${fields.length} fields resident of ${lazy.fields().length})`, rankedCount, rankedHeld);
    row(`  after a page's ${pageRows.length} rows read (plus ${lazy.resident.residentFields().length - fields.length} mixed columns, ${pageRows.length} records, the dictionaries)`, pageCount, pageHeld);
    console.log(
      `\nfile opened (every section's crc32 checked, streamed) in ${opened.wall.toFixed(0)} ms (${((opened.cpu.user + opened.cpu.system) / 1000).toFixed(0)} CPU-ms); ` +
        `first ranking ${first.wall.toFixed(1)} ms (${((first.cpu.user + first.cpu.system) / 1000).toFixed(1)} CPU-ms), of which reading its ${fields.length} columns ${readMs.toFixed(1)} ms; ` +
        `the same ranking again ${againMs.toFixed(1)} ms; a page's rows ${rowsMs.toFixed(1)} ms first (dictionaries read), ${rowsAgainMs.toFixed(1)} ms after; rows and scores identical byte for byte; load ${readLoad()}`,
    );
  } finally {
    await unlink(file).catch(() => undefined);
  }
}

function valueAtOf(index: VintageIndex, field: string, row: number): unknown {
  const column = index.column(field);
  if (!column) return null;
  if (column.kind === 'number') return Number.isNaN(column.values[row]!) ? null : column.values[row];
  if (column.kind === 'coded') return column.slots[row] === 0 ? null : column.dictionary.at(column.slots[row]! - 1);
  return column.values[row] ?? null;
}

/** The index with every number column as float64 and every coded column's slots as u32: the widths before coding. */
function widened(index: VintageIndex): VintageIndex {
  const columns = new Map<string, Parameters<typeof columnBytes>[0]>();
  for (const [field, column] of index.entries()) {
    if (column.kind === 'coded' && typeof column.dictionary.at(0) === 'number') columns.set(field, { kind: 'number', values: decodeNumbers(column) });
    else if (column.kind === 'coded') columns.set(field, { ...column, slots: Uint32Array.from(column.slots) });
    else columns.set(field, column);
  }
  return restoreIndex(index.vintageId, index.keys, index.rowsByKey, columns);
}

/** bench:discovery's buy box; `salt` moves the acres floor, as its uncached queries do. */
function canonical(salt: number) {
  const draft = discoveryBenchDraft(MARKET, salt);
  const result = normaliseDraft(draft, { knownField: () => true });
  if (!('spec' in result)) throw new Error(`bench spec refused: ${JSON.stringify(result.issues)}`);
  return result.spec;
}

function readLoad(): string {
  return os.loadavg().map((value) => value.toFixed(1)).join(' ');
}

/** Bytes PostgreSQL holds of a vintage: its partition with indexes and TOAST, its stored columns and shapes. */
async function postgresCopy(vintageId: string): Promise<number> {
  const { rows } = await db.query<{ bytes: string }>(
    `select (select pg_total_relation_size(c.oid) from pg_inherits i join pg_class c on c.oid = i.inhrelid
               where i.inhparent = 'discovery.parcels'::regclass and pg_get_expr(c.relpartbound, c.oid) like '%' || $1::text || '%')
          + (select coalesce(sum(pg_column_size(data)), 0) from discovery.vintage_columns where vintage_id = $1::uuid)
          + (select coalesce(sum(pg_column_size(data)), 0) from discovery.vintage_parcel_shapes where vintage_id = $1::uuid) as bytes`,
    [vintageId],
  );
  return Number(rows[0]!.bytes);
}
