import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Caller } from '@landscreen/rpc';
import type { CatalogTransaction } from '../schema.js';
import { RUN_COLUMNS, type RunRow } from './run-rows.js';
import { currentTraceparent } from '@landscreen/telemetry';

export interface RunLocation {
  lat: number;
  lon: number;
  id?: string;
}

export interface NewRun {
  tenantId: string;
  /** The submitter, as the gateway authenticated it: workers evaluate on its behalf. */
  caller: Caller;
  fields: string[];
  preset?: string;
  locations: readonly RunLocation[];
  creditsPerLocation: number;
  /** The credit-ledger row that charged the run. */
  chargeLedgerId: string;
  createdAt: Date;
  chunkSize: number;
}

/**
 * Chunk rows written per insert statement (each carries up to `chunkSize` locations as JSON), and
 * a turn of the event loop between statements: on PGlite a statement runs on the thread that
 * answers requests, and 25 chunks of 1,000 locations (1 MB of JSON) held it for 100-300 ms.
 */
const CHUNKS_PER_STATEMENT = 5;

/**
 * Writes a run and its chunks, inside the caller's transaction (the one that charges it, so a
 * charge never stands without its run, nor a run without its charge). Every chunk starts
 * unpublished: the relay hands it to JetStream once this transaction has committed.
 */
export async function insertRun(trx: CatalogTransaction, run: NewRun): Promise<RunRow> {
  const chunkCount = Math.ceil(run.locations.length / run.chunkSize);
  const charged = run.creditsPerLocation * run.locations.length;
  const row = await trx
    .insertInto('runs')
    .values((eb) => ({
      tenant_id: run.tenantId,
      caller: eb.cast(eb.val(JSON.stringify({ ...run.caller, sessionId: '' })), 'jsonb'),
      fields: run.fields,
      preset: run.preset ?? null,
      total: run.locations.length,
      chunk_count: chunkCount,
      chunks_left: chunkCount,
      credits_per_location: run.creditsPerLocation,
      credits_charged: charged,
      charge_ledger_id: Number(run.chargeLedgerId),
      created_at: run.createdAt,
      traceparent: currentTraceparent(),
    }))
    .returning(RUN_COLUMNS)
    .executeTakeFirstOrThrow();
  for (let first = 0; first < chunkCount; first += CHUNKS_PER_STATEMENT) {
    const chunks: { chunkNo: number; start: number; size: number; packed: string }[] = [];
    for (let chunkNo = first; chunkNo < Math.min(chunkCount, first + CHUNKS_PER_STATEMENT); chunkNo++) {
      const start = chunkNo * run.chunkSize;
      const slice = run.locations.slice(start, start + run.chunkSize);
      // Compact rows: [lat, lon, id]; an absent id is null.
      const packed = JSON.stringify(slice.map((location) => [location.lat, location.lon, location.id ?? null]));
      chunks.push({ chunkNo, start, size: slice.length, packed });
    }
    await trx
      .insertInto('run_chunks')
      .values((eb) =>
        chunks.map(({ chunkNo, start, size, packed }) => ({ run_id: row.id, chunk_no: chunkNo, first_index: start, size, locations: eb.cast(eb.val(packed), 'jsonb') })),
      )
      .execute();
    await nextTurn();
  }
  return row;
}
