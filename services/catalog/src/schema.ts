import type { Generated, GeneratedAlways, Kysely, Transaction } from 'kysely';
import { schemaView, type Narrowed, type ProcessDatabase } from '@landscreen/db';
import type { LayerSource, PlanId } from '@landscreen/field-catalog';
import type { LayerFormat } from '@landscreen/layer-io';
import type { StoredGridMeta } from './layers/grid-meta.js';
import type { RunStatus } from './runs/run-status.js';
import type * as tables from './tables.generated.js';

/** The PostgreSQL schema this service owns. */
export const SCHEMA = 'catalog';

// The tables as the migrations make them (`tables.generated.ts`, written by `npm run
// generate:tables` from a migrated database; CI fails when it is stale), narrowed where the code
// knows more than PostgreSQL's catalog. bigint columns are numbers (the pool and PGlite parse int8
// as Number); bytea is a Buffer from pg and a Uint8Array from PGlite, so Uint8Array; jsonb comes
// back parsed, so unknown; uuid is a string. (`catalog.layer_version_seq` is a sequence.)

export type RunChunkStatus = 'pending' | 'done' | 'cancelled';

/** One row per stored layer version; written in the import's one transaction, never changed after. */
export type LayerVersionsTable = Narrowed<
  tables.CatalogLayerVersions,
  {
    /** Drawn from `catalog.layer_version_seq` by the import (no column default). */
    seq: number;
    format: LayerFormat;
    geometry: LayerSource['geometry'];
    /** WGS84 [west, south, east, north]; null until the import completes (and for an empty layer). */
    bbox: [number, number, number, number] | null;
    /** A grid layer's metadata; null for a vector layer. */
    grid: StoredGridMeta | null;
  }
>;

export type LayerChunksTable = tables.CatalogLayerChunks;

/** A tenant's plan; `signup_month` is a `date` the service writes (and reads, `::text`) as `YYYY-MM-01`. */
export type TenantAccountsTable = Narrowed<tables.CatalogTenantAccounts, { plan: PlanId }>;

/** Append-only (a trigger refuses updates and deletes). `credits` is negative for a refund (then `refund_of` names the row refunded). */
export type CreditLedgerTable = Narrowed<
  tables.CatalogCreditLedger,
  {
    /** `generated always as identity`: PostgreSQL refuses an insert that names it. */
    id: GeneratedAlways<number>;
  }
>;

/** The ledger's running sum per tenant and UTC month. */
export type CreditMonthsTable = tables.CatalogCreditMonths;

/** Unlogged: a tenant's billed requests per minute. */
export type RateWindowsTable = tables.CatalogRateWindows;

export type IdempotencyKeysTable = tables.CatalogIdempotencyKeys;

/** A run; `caller` is the submitter (a Caller) as jsonb. */
export type RunsTable = Narrowed<tables.CatalogRuns, { status: Generated<RunStatus> }>;

/** A chunk of a run; its own outbox entry until `published_at` is set. `locations` is `[[lat, lon, id], ...]`, `results` NDJSON once done. */
export type RunChunksTable = Narrowed<tables.CatalogRunChunks, { status: Generated<RunChunkStatus> }>;

export interface CatalogDatabase {
  layer_versions: LayerVersionsTable;
  layer_chunks: LayerChunksTable;
  tenant_accounts: TenantAccountsTable;
  credit_ledger: CreditLedgerTable;
  credit_months: CreditMonthsTable;
  rate_windows: RateWindowsTable;
  idempotency_keys: IdempotencyKeysTable;
  runs: RunsTable;
  run_chunks: RunChunksTable;
}

/** The service's view of the database: its own tables, every query in the "catalog" schema. */
export type CatalogDb = Kysely<CatalogDatabase>;

/**
 * A transaction on that view. What holds a row lock until commit (`for update`, a conditional
 * upsert's lock on the month's running sum), or writes what must commit together with the
 * caller's other writes (a charge and its ledger row, the idempotency key claimed for it and its
 * stored answer, a run and its chunks, a refund and the run it stops, a layer version and its
 * chunks), takes this type: called with the plain database it does not compile.
 */
export type CatalogTransaction = Transaction<CatalogDatabase>;

/** The service's view of the shared database (made once, where the service or a command starts). */
export const catalogDb = (db: ProcessDatabase): CatalogDb => schemaView<CatalogDatabase>(db, SCHEMA);
