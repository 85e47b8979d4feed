import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { canCopyOut, copyOut } from '@landscreen/db';
import { isUuid } from '@landscreen/rpc';
import { valueAt, type Column, type Dictionary, type Slots } from './columns.js';
import { codeNumbers, codeScalars, decodeNumbers, defaultMaxCodes, isNumericDictionary, mergeNumberDictionaries } from './numeric-codes.js';
import { narrowSlots, slotsOfCodes, widenSlots } from './slots.js';
import type { ParcelKeys } from './parcel-keys.js';
import { Utf8Strings } from './utf8-strings.js';
import { assembleIndex, restoreIndex, type VintageIndex } from './vintage-index.js';
import type { DiscoveryDb, DiscoveryTransaction } from '../schema.js';

const KEYS = '#parcel_key';
const KEY_ORDER = '#parcel_key_order';

const bytesOf = (array: Float64Array | Int32Array | Slots) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
/**
 * The bytes as an ArrayBuffer a Float64Array or Int32Array can view: a copy only when they do not
 * start on an 8-byte boundary of memory of their own (binary COPY hands over such buffers).
 */
const aligned = (bytes: Uint8Array): ArrayBuffer =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);

/**
 * Rows per stored chunk of a vintage's ranking index: an import or a prepare writes each chunk as
 * it goes and a prepare reads its base chunk by chunk, so neither holds a whole market's columns.
 */
export const CHUNK_ROWS = 50_000;

/** One chunk of a vintage's index: its rows' keys and facts. */
export interface ColumnChunk {
  keys: ParcelKeys;
  columns: Iterable<[string, Column]>;
  /** Rows in ascending parcel_key order, stored only for a vintage that is one chunk. */
  rowsByKey?: Uint32Array;
}

/**
 * Stores a vintage's ranking index with the vintage (in the import's transaction) as one chunk.
 */
export async function saveColumns(trx: DiscoveryTransaction, index: VintageIndex): Promise<void> {
  await saveColumnChunk(trx, index.vintageId, 0, { keys: index.keys, columns: index.entries(), rowsByKey: index.rowsByKey });
}

/**
 * Stores chunk `chunk` of a vintage's ranking index: one row per fact — numbers as little-endian
 * float64 (kind `float64`), a coded column's slots as u8, u16 or u32 by its dictionary's size
 * (kind `slots`; the width is the data's length over the rows) with the dictionary, anything else
 * as JSON — plus the parcel keys. Rows of kinds `number` (float64, never coded) and `coded` (int32
 * codes, −1 "no value") are read as well, and coded as a new build codes them.
 * A chunk is stored once: a second write of the same chunk fails on the primary key.
 */
export async function saveColumnChunk(trx: DiscoveryTransaction, vintageId: string, chunk: number, part: ColumnChunk): Promise<void> {
  const insert = (field: string, kind: string, data: Buffer, dictionary: unknown[] | null) =>
    trx
      .insertInto('vintage_columns')
      .values((eb) => ({ vintage_id: vintageId, field, chunk, kind, data, dictionary: eb.cast(eb.val(dictionary === null ? null : JSON.stringify(dictionary)), 'jsonb') }))
      .execute();
  await insert(KEYS, 'keys', Buffer.from(JSON.stringify(Array.from({ length: part.keys.length }, (_, row) => part.keys.at(row)))), null);
  if (part.rowsByKey) await insert(KEY_ORDER, 'key_order', bytesOf(part.rowsByKey), null);
  for (const [field, column] of part.columns) {
    if (column.kind === 'number') await insert(field, 'float64', bytesOf(column.values), null);
    else if (column.kind === 'coded') await insert(field, 'slots', bytesOf(column.slots), Array.from({ length: column.dictionary.length }, (_, code) => column.dictionary.at(code)));
    else await insert(field, 'mixed', Buffer.from(JSON.stringify(column.values.map((value) => value ?? null))), null);
  }
}

/**
 * What names a vintage's stored columns without reading them: each row's field, kind, version
 * (xmin: any update of the row changes it) and the stored sizes of its data and dictionary. A
 * local copy made from other rows (a migration that rewrote them, a database restored under the
 * same ids) has another fingerprint. Nothing here decompresses a value: `octet_length(data)` took
 * 2.4 s at a million parcels, a hash of the dictionaries (an APN column's holds 1M entries) 2.7 s.
 */
export async function columnsFingerprint(db: DiscoveryDb, vintageId: string): Promise<string> {
  const rows = await db
    .selectFrom('vintage_columns')
    .select((eb) => [
      'field',
      'chunk',
      'kind',
      // xmin is a system column, not one of the table's types.
      sql<string>`xmin::text`.as('version'),
      eb.fn<number>('pg_column_size', ['data']).as('size'),
      eb.fn<number | null>('pg_column_size', ['dictionary']).as('dictionary'),
    ])
    .where('vintage_id', '=', vintageId)
    .orderBy('field', (order) => order.collate('C'))
    .orderBy('chunk')
    .execute();
  if (rows.length === 0) throw new Error(`vintage ${vintageId} has no stored ranking index`);
  const hash = createHash('sha256');
  // Chunk 0 names no chunk: the fingerprints of vintages stored as one piece stay what they were.
  for (const row of rows) hash.update(`${row.field}${row.chunk === 0 ? '' : `@${row.chunk}`}\t${row.kind}\t${row.version}\t${row.size}\t${row.dictionary ?? ''}\n`);
  return hash.digest('hex');
}

export interface StoredColumns {
  keys: string[];
  /** Rows in ascending parcel_key order; absent for vintages stored before it was kept. */
  rowsByKey?: Uint32Array;
  columns: Map<string, Column>;
}

interface StoredColumn {
  field: string;
  chunk: number;
  kind: string;
  data: Uint8Array;
  dictionary: unknown[] | null;
}

/**
 * A vintage's ranking index as stored with it, its keys and large string dictionaries packed as
 * UTF-8 (as an index read from a local file holds them: a JS string costs 3–4 times its bytes).
 */
export async function loadVintageIndex(db: DiscoveryDb, vintageId: string): Promise<VintageIndex> {
  const { keys, rowsByKey, columns } = await loadColumns(db, vintageId);
  const index = assembleIndex(vintageId, keys, columns, rowsByKey);
  return restoreIndex(vintageId, packed(keys), index.rowsByKey, packDictionaries(columns));
}

/**
 * Dictionaries of strings above this many entries are packed. Smaller ones stay arrays: a rule
 * over a packed dictionary decodes it whole once, which a few hundred strings do not repay.
 */
const PACKED_DICTIONARY = 0xff;

function packed(strings: readonly string[]): Utf8Strings {
  const { bytes, ends } = Utf8Strings.encode(strings);
  return new Utf8Strings(bytes, ends);
}

function packDictionaries(columns: Map<string, Column>): Map<string, Column> {
  for (const [field, column] of columns) {
    if (column.kind !== 'coded' || !Array.isArray(column.dictionary) || column.dictionary.length <= PACKED_DICTIONARY) continue;
    const dictionary = column.dictionary as unknown[];
    if (dictionary.every((value) => typeof value === 'string')) columns.set(field, { ...column, dictionary: packed(dictionary as string[]) });
  }
  return columns;
}

/** The chunks a vintage's index is stored in, in row order. */
export async function storedChunks(db: DiscoveryDb, vintageId: string): Promise<number[]> {
  const rows = await db.selectFrom('vintage_columns').select('chunk').where('vintage_id', '=', vintageId).where('field', '=', KEYS).orderBy('chunk').execute();
  if (rows.length === 0) throw new Error(`vintage ${vintageId} has no stored ranking index`);
  return rows.map((row) => row.chunk);
}

/** A vintage's whole index: its chunks, one after another. */
export async function loadColumns(db: DiscoveryDb, vintageId: string): Promise<StoredColumns> {
  const byChunk = new Map<number, StoredColumn[]>();
  for (const row of await readStoredColumns(db, vintageId)) {
    let rows = byChunk.get(row.chunk);
    if (!rows) byChunk.set(row.chunk, (rows = []));
    rows.push(row);
  }
  if (byChunk.size === 0) throw new Error(`vintage ${vintageId} has no stored ranking index`);
  const chunks = [...byChunk.keys()].sort((a, b) => a - b).map((chunk) => decodeChunk(vintageId, byChunk.get(chunk)!));
  return chunks.length === 1 ? chunks[0]! : concatChunks(chunks);
}

/** One chunk of a vintage's index (its rows only: keys and columns of that chunk's length). */
export async function loadColumnChunk(db: DiscoveryDb, vintageId: string, chunk: number): Promise<StoredColumns> {
  return decodeChunk(vintageId, await readStoredColumns(db, vintageId, chunk));
}

function decodeChunk(vintageId: string, rows: StoredColumn[]): StoredColumns {
  const keyRow = rows.find((row) => row.kind === 'keys');
  if (!keyRow) throw new Error(`vintage ${vintageId} has no stored ranking index`);
  const keys = JSON.parse(Buffer.from(keyRow.data).toString('utf8')) as string[];
  let rowsByKey: Uint32Array | undefined;
  const columns = new Map<string, Column>();
  for (const row of rows) {
    if (row.kind === 'keys') continue;
    if (row.kind === 'key_order') rowsByKey = new Uint32Array(aligned(row.data));
    else if (row.kind === 'float64') columns.set(row.field, { kind: 'number', values: new Float64Array(aligned(row.data)) });
    else if (row.kind === 'number') columns.set(row.field, codeNumbers(new Float64Array(aligned(row.data))));
    else if (row.kind === 'slots') columns.set(row.field, { kind: 'coded', slots: slotsOf(vintageId, row, keys.length), dictionary: row.dictionary ?? [] });
    else if (row.kind === 'coded') columns.set(row.field, codedOf(new Int32Array(aligned(row.data)), row.dictionary ?? []));
    else columns.set(row.field, codeScalars((JSON.parse(Buffer.from(row.data).toString('utf8')) as unknown[]).map((value) => value ?? undefined)));
  }
  return { keys, rowsByKey, columns };
}

/** Stored slots as the array their width says (data bytes over rows). */
function slotsOf(vintageId: string, row: StoredColumn, size: number): Slots {
  const width = size === 0 ? 1 : row.data.byteLength / size;
  const buffer = aligned(row.data);
  if (width === 1) return new Uint8Array(buffer);
  if (width === 2) return new Uint16Array(buffer);
  if (width === 4) return new Uint32Array(buffer);
  throw new Error(`vintage ${vintageId}: column ${row.field} holds ${row.data.byteLength} bytes for ${size} rows`);
}

/** A column stored as int32 codes: a number dictionary is coded again in order, as a build codes it. */
function codedOf(codes: Int32Array, dictionary: unknown[]): Column {
  if (isNumericDictionary(dictionary)) {
    const values = new Float64Array(codes.length);
    for (let row = 0; row < codes.length; row++) values[row] = codes[row]! < 0 ? Number.NaN : (dictionary[codes[row]!] as number);
    return codeNumbers(values);
  }
  return { kind: 'coded', slots: slotsOfCodes(codes, dictionary.length), dictionary };
}

type Coded = Extract<Column, { kind: 'coded' }>;
const isCodedNumbers = (column: Column | undefined): boolean => column?.kind === 'coded' && isNumericDictionary(column.dictionary);

/**
 * Chunks joined into one index. A field keeps its kind when every chunk holding it agrees (codes
 * renumbered into one dictionary), else it becomes mixed; rows of a chunk without the field have
 * no value. Numbers stay coded when every chunk coded them and their numbers together still fit
 * (numeric-codes.ts NumberCoding, for the joined rows; in ascending order, as a build codes them),
 * else become plain.
 */
export function concatChunks(chunks: StoredColumns[]): StoredColumns {
  const size = chunks.reduce((total, chunk) => total + chunk.keys.length, 0);
  const keys = new Array<string>(size);
  const offsets: number[] = [];
  let offset = 0;
  for (const chunk of chunks) {
    offsets.push(offset);
    for (let row = 0; row < chunk.keys.length; row++) keys[offset + row] = chunk.keys[row]!;
    offset += chunk.keys.length;
  }
  const fields = new Set<string>();
  for (const chunk of chunks) for (const field of chunk.columns.keys()) fields.add(field);
  const columns = new Map<string, Column>();
  for (const field of fields) {
    // A coded column with an empty dictionary holds no value: as if the chunk lacked the field.
    const holding = (column: Column | undefined) => (column?.kind === 'coded' && column.dictionary.length === 0 ? undefined : column);
    const parts = chunks.map((chunk, c) => ({ column: holding(chunk.columns.get(field)), offset: offsets[c]!, rows: chunk.keys.length }));
    const held = parts.filter((part) => part.column);
    const numeric = held.every((part) => part.column!.kind === 'number' || isCodedNumbers(part.column));
    const kinds = new Set(held.map((part) => (isCodedNumbers(part.column) ? 'number' : part.column!.kind)));
    const kind = numeric ? 'numbers' : kinds.size === 1 ? [...kinds][0]! : 'mixed';
    if (kind === 'numbers') columns.set(field, concatNumbers(parts, size));
    else if (kind === 'coded') {
      const merged = mergeDictionaries(parts.map((part) => (part.column as Coded | undefined)?.dictionary));
      columns.set(field, { kind: 'coded', slots: joinSlots(parts, merged.slotMaps, size, merged.dictionary.length), dictionary: merged.dictionary });
    } else {
      const values = new Array<unknown>(size);
      for (const part of parts) for (let row = 0; row < part.rows; row++) values[part.offset + row] = valueAt(part.column, row) ?? undefined;
      columns.set(field, codeScalars(values));
    }
  }
  return { keys, columns };
}

/** One dictionary of several, in order of first appearance, and each part's slots in it (slot 0 stays 0). */
function mergeDictionaries(dictionaries: (Dictionary | undefined)[]) {
  const codeOf = new Map<unknown, number>();
  const dictionary: unknown[] = [];
  for (const part of dictionaries) part?.forEach((value) => codeOf.has(value) || (codeOf.set(value, dictionary.length), dictionary.push(value)));
  const slotMaps = dictionaries.map((part) => {
    const map = new Uint32Array((part?.length ?? 0) + 1);
    part?.forEach((value, code) => (map[code + 1] = codeOf.get(value)! + 1));
    return map;
  });
  return { dictionary, slotMaps };
}

/** The parts' slots, each renumbered by its map, one after another (rows of a part without the column have none). */
function joinSlots(parts: { column: Column | undefined; offset: number; rows: number }[], slotMaps: Uint32Array[], size: number, entries: number): Slots {
  const wide = new Uint32Array(size);
  parts.forEach((part, p) => {
    if (!part.column) return;
    const renumbered = slotMaps[p]!;
    const partSlots = widenSlots((part.column as Coded).slots);
    for (let row = 0; row < part.rows; row++) wide[part.offset + row] = renumbered[partSlots[row]!]!;
  });
  return narrowSlots(wide, entries);
}

function concatNumbers(parts: { column: Column | undefined; offset: number; rows: number }[], size: number): Column {
  const coded = parts.every((part) => !part.column || part.column.kind === 'coded');
  if (coded) {
    const merged = mergeNumberDictionaries(parts.map((part) => (part.column as Coded | undefined)?.dictionary as number[] | undefined));
    if (merged.dictionary.length <= defaultMaxCodes(size)) return { kind: 'coded', slots: joinSlots(parts, merged.slotMaps, size, merged.dictionary.length), dictionary: merged.dictionary };
  }
  const values = new Float64Array(size).fill(Number.NaN);
  for (const part of parts) {
    if (part.column?.kind === 'number') values.set(part.column.values, part.offset);
    else if (part.column?.kind === 'coded') values.set(decodeNumbers(part.column), part.offset);
  }
  return { kind: 'number', values };
}

/**
 * The stored rows of a vintage's index (of one chunk, or all). On PostgreSQL through binary COPY,
 * which brings each blob as its bytes: as a query result it came as hex text, twice the size,
 * and decoding it was most of loading a million-parcel vintage (3.6 s).
 */
async function readStoredColumns(db: DiscoveryDb, vintageId: string, chunk?: number): Promise<StoredColumn[]> {
  if (chunk !== undefined && !Number.isInteger(chunk)) throw new Error(`not a chunk number: ${chunk}`);
  if (!canCopyOut(db)) {
    const columns = db.selectFrom('vintage_columns').select(['field', 'chunk', 'kind', 'data', 'dictionary']).where('vintage_id', '=', vintageId);
    return (chunk === undefined ? columns : columns.where('chunk', '=', chunk)).$narrowType<{ dictionary: unknown[] | null }>().execute();
  }
  // COPY takes no parameters; the id goes in as a literal only once it is known to be a uuid.
  if (!isUuid(vintageId)) throw new Error(`not a vintage id: ${vintageId}`);
  const rows = await copyOut(
    db,
    `select field, chunk::text, kind, data, dictionary::text from discovery.vintage_columns where vintage_id = '${vintageId}'${chunk === undefined ? '' : ` and chunk = ${chunk}`}`,
  );
  return rows.map(([field, chunkText, kind, data, dictionary]) => ({
    field: field!.toString('utf8'),
    chunk: Number(chunkText!.toString('utf8')),
    kind: kind!.toString('utf8'),
    data: data!,
    dictionary: dictionary === null ? null : (JSON.parse(dictionary!.toString('utf8')) as unknown[]),
  }));
}
