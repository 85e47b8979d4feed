import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { canCopyOut, copyOut } from '@landscreen/db';
import { isUuid } from '@landscreen/rpc';
import type { Column } from './columns.js';
import { assembleIndex, type VintageIndex } from './vintage-index.js';
import type { DiscoveryDb, DiscoveryTransaction } from '../schema.js';

const KEYS = '#parcel_key';
const KEY_ORDER = '#parcel_key_order';

const bytesOf = (array: Float64Array | Int32Array | Uint32Array) => Buffer.from(array.buffer, array.byteOffset, array.byteLength);
/**
 * The bytes as an ArrayBuffer a Float64Array or Int32Array can view: a copy only when they do not
 * start on an 8-byte boundary of memory of their own (binary COPY hands over such buffers).
 */
const aligned = (bytes: Uint8Array): ArrayBuffer =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);

/**
 * Stores a vintage's ranking index with the vintage (in the import's transaction): one row per
 * fact — numbers as little-endian float64, codes as int32 with their dictionary, anything else
 * as JSON — plus the parcel keys.
 */
export async function saveColumns(trx: DiscoveryTransaction, index: VintageIndex): Promise<void> {
  const insert = (field: string, kind: string, data: Buffer, dictionary: unknown[] | null) =>
    sql`insert into discovery.vintage_columns (vintage_id, field, kind, data, dictionary)
        values (${index.vintageId}, ${field}, ${kind}, ${data}, ${dictionary === null ? null : JSON.stringify(dictionary)}::jsonb)`.execute(trx);
  await insert(KEYS, 'keys', Buffer.from(JSON.stringify(Array.from({ length: index.size }, (_, row) => index.keys.at(row)))), null);
  await insert(KEY_ORDER, 'key_order', bytesOf(index.rowsByKey), null);
  for (const [field, column] of index.entries()) {
    if (column.kind === 'number') await insert(field, 'number', bytesOf(column.values), null);
    else if (column.kind === 'coded') await insert(field, 'coded', bytesOf(column.codes), Array.from({ length: column.dictionary.length }, (_, code) => column.dictionary.at(code)));
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
  const { rows } = await sql<{ field: string; kind: string; version: string; size: number; dictionary: number | null }>`
    select field, kind, xmin::text as version, pg_column_size(data) as size, pg_column_size(dictionary) as dictionary
    from discovery.vintage_columns where vintage_id = ${vintageId} order by field collate "C"`.execute(db);
  if (rows.length === 0) throw new Error(`vintage ${vintageId} has no stored ranking index`);
  const hash = createHash('sha256');
  for (const row of rows) hash.update(`${row.field}\t${row.kind}\t${row.version}\t${row.size}\t${row.dictionary ?? ''}\n`);
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
  kind: string;
  data: Uint8Array;
  dictionary: unknown[] | null;
}

/** A vintage's ranking index as stored with it. */
export async function loadVintageIndex(db: DiscoveryDb, vintageId: string): Promise<VintageIndex> {
  const { keys, rowsByKey, columns } = await loadColumns(db, vintageId);
  return assembleIndex(vintageId, keys, columns, rowsByKey);
}

export async function loadColumns(db: DiscoveryDb, vintageId: string): Promise<StoredColumns> {
  const rows = await readStoredColumns(db, vintageId);
  let keys: string[] | undefined;
  let rowsByKey: Uint32Array | undefined;
  const columns = new Map<string, Column>();
  for (const row of rows) {
    if (row.kind === 'keys') keys = JSON.parse(Buffer.from(row.data).toString('utf8')) as string[];
    else if (row.kind === 'key_order') rowsByKey = new Uint32Array(aligned(row.data));
    else if (row.kind === 'number') columns.set(row.field, { kind: 'number', values: new Float64Array(aligned(row.data)) });
    else if (row.kind === 'coded') columns.set(row.field, { kind: 'coded', codes: new Int32Array(aligned(row.data)), dictionary: row.dictionary ?? [] });
    else columns.set(row.field, { kind: 'mixed', values: JSON.parse(Buffer.from(row.data).toString('utf8')) as unknown[] });
  }
  if (!keys) throw new Error(`vintage ${vintageId} has no stored ranking index`);
  return { keys, rowsByKey, columns };
}

/**
 * The stored rows of a vintage's index. On PostgreSQL through binary COPY, which brings each blob
 * as its bytes: as a query result it came as hex text, twice the size, and decoding it was most
 * of loading a million-parcel vintage (3.6 s).
 */
async function readStoredColumns(db: DiscoveryDb, vintageId: string): Promise<StoredColumn[]> {
  if (!canCopyOut(db)) {
    const { rows } = await sql<StoredColumn>`
      select field, kind, data, dictionary from discovery.vintage_columns where vintage_id = ${vintageId}`.execute(db);
    return rows;
  }
  // COPY takes no parameters; the id goes in as a literal only once it is known to be a uuid.
  if (!isUuid(vintageId)) throw new Error(`not a vintage id: ${vintageId}`);
  const rows = await copyOut(db, `select field, kind, data, dictionary::text from discovery.vintage_columns where vintage_id = '${vintageId}'`);
  return rows.map(([field, kind, data, dictionary]) => ({
    field: field!.toString('utf8'),
    kind: kind!.toString('utf8'),
    data: data!,
    dictionary: dictionary === null ? null : (JSON.parse(dictionary!.toString('utf8')) as unknown[]),
  }));
}
