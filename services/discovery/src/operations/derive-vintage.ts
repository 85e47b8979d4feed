import type { ParcelRecord } from '@landscreen/parcel-io';
import type { FieldProvenance } from '../field-provenance.js';
import type { DiscoveryDb, DiscoveryTransaction } from '../schema.js';
import { canCopyOut } from '@landscreen/db';
import { storedChunks } from '../ranking/column-store.js';
import { baseChunkPages, storedBase, type BaseVintage, type StoredBase } from './base-chunk.js';
import { importVintage, type ImportProgress, type ImportResult } from './import-vintage.js';

export type { BaseVintage };

export interface DeriveVintageOptions {
  market: string;
  /** What the new vintage says it came from. */
  source: string;
  /** Called once the base vintage is known, before anything is read or written. */
  onBase?(base: BaseVintage): void;
  /**
   * Adds facts to a page of the base vintage's parcels, in place (`derived` and `computed`).
   * A throw aborts the whole vintage: nothing is written and the base stays current.
   */
  derive(records: ParcelRecord[]): void | Promise<void>;
  onProgress?(progress: ImportProgress): void;
  /**
   * How many pages `derive` may work on at once (default 1): with its work elsewhere (worker
   * threads), the next pages are read and derived while earlier ones are written. Pages are
   * still written in the base's row order.
   */
  parallelism?: number;
  /**
   * The provenance of the fields `derive` added, once per field (field-provenance.ts), asked when
   * every page is derived; the base vintage's entries of the other fields are kept.
   */
  fieldProvenance?(): FieldProvenance;
  /** Rows per stored chunk of the new vintage's ranking index (importVintage's chunkRows). */
  chunkRows?: number;
}

/**
 * A new vintage of a market's current parcels with facts added by `derive` (landscreen prepare):
 * the same parcel_keys, geometry, typed, free and derived facts, written through importVintage,
 * so it is one transaction that becomes current only when complete, and the base is untouched.
 * Parcels are read in the base's row order, one chunk of its stored ranking index at a time (their
 * free and derived facts live there), and a page of that chunk's keys at a time from the base's
 * rows inside the import's transaction: memory holds a chunk and the pages in flight, whatever the
 * market's size.
 */
export async function deriveVintage(db: DiscoveryDb, options: DeriveVintageOptions): Promise<ImportResult> {
  const base = await storedBase(db, options.market);
  options.onBase?.({ marketId: base.marketId, vintageId: base.vintageId, parcels: base.parcels });
  return importVintage(db, {
    market: options.market,
    source: options.source,
    onProgress: options.onProgress,
    chunkRows: options.chunkRows,
    // The base's stored index is read one chunk at a time: through a connection of its own on
    // PostgreSQL (binary COPY), through the transaction's on PGlite (its only one).
    records: (trx) => derivedRecords(trx, canCopyOut(db) ? db : trx, base, options.derive, Math.max(1, options.parallelism ?? 1)),
    fieldProvenance: () => {
      const merged = { ...(base.fieldProvenance ?? {}), ...(options.fieldProvenance?.() ?? {}) };
      return Object.keys(merged).length === 0 ? null : merged;
    },
  });
}

async function* derivedRecords(
  trx: DiscoveryTransaction,
  indexReader: DiscoveryDb,
  base: StoredBase,
  derive: DeriveVintageOptions['derive'],
  parallelism: number,
): AsyncIterable<ParcelRecord[]> {
  const chunks = await storedChunks(indexReader, base.vintageId);
  async function* pagesOfChunks() {
    for (const chunk of chunks) yield* baseChunkPages(indexReader, trx, base, chunk);
  }
  const pages = pagesOfChunks();
  let line = 0;
  /**
   * Reads the next page and starts deriving it: the page's records once derived (null at the end).
   * Wrapped, so awaiting the read does not await the derivation.
   */
  const nextPage = async (): Promise<{ derived: Promise<ParcelRecord[]> } | null> => {
    const next = await pages.next();
    if (next.done) return null;
    const records = next.value;
    for (const record of records) record.line = ++line;
    const derived = Promise.resolve(derive(records)).then(() => records);
    derived.catch(() => {}); // observed when its turn to be written comes
    return { derived };
  };
  const inFlight: Promise<ParcelRecord[]>[] = [];
  for (;;) {
    while (inFlight.length < parallelism) {
      const page = await nextPage();
      if (!page) break;
      inFlight.push(page.derived);
    }
    const page = inFlight.shift();
    if (!page) return;
    yield await page;
  }
}
