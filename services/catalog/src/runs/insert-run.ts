import { setImmediate as nextTurn } from 'node:timers/promises';
import { sql } from 'kysely';
import type { Caller } from '@landscreen/rpc';
import type { CatalogTransaction } from '../schema.js';
import type { RunRow } from './run-rows.js';
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
  const { rows } = await sql<RunRow>`
    insert into catalog.runs (tenant_id, caller, fields, preset, total, chunk_count, chunks_left, credits_per_location, credits_charged, charge_ledger_id, created_at, traceparent)
    values (${run.tenantId}, ${JSON.stringify({ ...run.caller, sessionId: '' })}::jsonb, ${run.fields}::text[], ${run.preset ?? null}, ${run.locations.length}, ${chunkCount}, ${chunkCount},
            ${run.creditsPerLocation}, ${charged}, ${run.chargeLedgerId}::bigint, ${run.createdAt}, ${currentTraceparent()})
    returning *`.execute(trx);
  const row = rows[0];
  for (let first = 0; first < chunkCount; first += CHUNKS_PER_STATEMENT) {
    const values = [];
    for (let chunkNo = first; chunkNo < Math.min(chunkCount, first + CHUNKS_PER_STATEMENT); chunkNo++) {
      const start = chunkNo * run.chunkSize;
      const slice = run.locations.slice(start, start + run.chunkSize);
      // Compact rows: [lat, lon, id]; an absent id is null.
      const packed = JSON.stringify(slice.map((location) => [location.lat, location.lon, location.id ?? null]));
      values.push(sql`(${row.id}, ${chunkNo}, ${start}, ${slice.length}, ${packed}::jsonb)`);
    }
    await sql`insert into catalog.run_chunks (run_id, chunk_no, first_index, size, locations) values ${sql.join(values)}`.execute(trx);
    await nextTurn();
  }
  return row;
}
