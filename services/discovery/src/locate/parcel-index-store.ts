// A vintage's parcel index kept in the database beside its ranking columns
// (discovery.vintage_parcel_shapes): written by the import, or once by the first service that had
// to build it from the parcels' JSON geometry (a vintage imported before it was kept), and read
// back as bytes.

import { canCopyOut, copyOut } from '@landscreen/db';
import { isUuid } from '@landscreen/rpc';
import { decodeParcelIndex, encodeParcelIndex } from './parcel-index-blob.js';
import { joinParts, ownedCopy } from './packed-columns.js';
import type { StoredParcelIndex } from './stored-parcel-index.js';
import type { DiscoveryDb, DiscoveryTransaction } from '../schema.js';

/** Bytes a row holds: far below bytea's 1 GB and a protocol message's limits. */
const PART_BYTES = 32 * 1024 * 1024;

/** Splits the encoded chunks into parts of at most PART_BYTES. */
function parts(chunks: Uint8Array[]): Buffer[] {
  const whole = Buffer.concat(chunks);
  const out: Buffer[] = [];
  for (let start = 0; start < whole.length; start += PART_BYTES) out.push(whole.subarray(start, start + PART_BYTES));
  return out;
}

/**
 * Stores the index. Two services storing the same vintage at once both write the same rows; the
 * first transaction's stay (a conflict on any part keeps every part of the first).
 */
export async function saveParcelIndex(db: DiscoveryDb | DiscoveryTransaction, stored: StoredParcelIndex): Promise<void> {
  const rows = parts(encodeParcelIndex(stored));
  const write = async (trx: DiscoveryTransaction) => {
    for (const [part, data] of rows.entries()) {
      await trx
        .insertInto('vintage_parcel_shapes')
        .values({ vintage_id: stored.vintageId, part, data })
        .onConflict((oc) => oc.columns(['vintage_id', 'part']).doNothing())
        .execute();
    }
  };
  if (db.isTransaction) await write(db as DiscoveryTransaction);
  else await (db as DiscoveryDb).transaction().execute(write);
}

/** The stored index of the vintage, or undefined when none is stored. Bad bytes throw UnusableParcelIndex. */
export async function loadStoredParcelIndex(db: DiscoveryDb, vintageId: string): Promise<StoredParcelIndex | undefined> {
  const parts = await loadStoredParcelParts(db, vintageId);
  return parts && decodeParcelIndex(joinParts(parts), vintageId);
}

/**
 * The stored index's parts, undecoded, in order, each in an ArrayBuffer of its own (so that they
 * can be transferred to a worker thread without a copy), or undefined when none is stored.
 */
export async function loadStoredParcelParts(db: DiscoveryDb, vintageId: string): Promise<Uint8Array[] | undefined> {
  const chunks = await readParts(db, vintageId);
  if (chunks.length === 0) return undefined;
  // COPY gives each field a buffer of its own; a query's rows may be views into a larger one.
  return chunks.map((chunk) => (chunk.byteOffset === 0 && chunk.byteLength === chunk.buffer.byteLength && chunk.buffer instanceof ArrayBuffer ? chunk : ownedCopy(chunk)));
}

/**
 * The parts in order. On PostgreSQL through binary COPY (each bytea as its bytes; as a query's
 * result it comes as hex text, twice the size, decoded again here).
 */
async function readParts(db: DiscoveryDb, vintageId: string): Promise<Uint8Array[]> {
  if (!canCopyOut(db)) {
    const rows = await db.selectFrom('vintage_parcel_shapes').select('data').where('vintage_id', '=', vintageId).orderBy('part').execute();
    return rows.map((row) => row.data);
  }
  // COPY takes no parameters; the id goes in as a literal only once it is known to be a uuid.
  if (!isUuid(vintageId)) throw new Error(`not a vintage id: ${vintageId}`);
  const rows = await copyOut(db, `select data from discovery.vintage_parcel_shapes where vintage_id = '${vintageId}' order by part`);
  return rows.map(([data]) => data!);
}
