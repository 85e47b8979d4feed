import type { ColumnType, Generated, GeneratedAlways, Kysely, Transaction } from 'kysely';
import { schemaView, type ProcessDatabase } from '@landscreen/db';
import type { LayerSource, PlanId } from '@landscreen/field-catalog';
import type { LayerFormat } from '@landscreen/layer-io';
import type { RunStatus } from './runs/run-status.js';

/** The PostgreSQL schema this service owns. */
export const SCHEMA = 'catalog';

// The tables as migrations/*.ts create them. bigint columns are numbers (the pool and PGlite parse
// int8 as Number); bytea is a Buffer from pg and a Uint8Array from PGlite, so Uint8Array; jsonb
// comes back parsed, so unknown; uuid is a string. (`catalog.layer_version_seq` is a sequence.)

/** A `date` column: both drivers hand it over as a Date; the service writes (and reads, `::text`) `YYYY-MM-01`. */
type DateColumn = ColumnType<Date, Date | string, Date | string>;

export type RunChunkStatus = 'pending' | 'done' | 'cancelled';

/** One row per stored layer version (issue 12); written in the import's one transaction, never changed after. */
export interface LayerVersionsTable {
  id: Generated<string>;
  /** Drawn from `catalog.layer_version_seq` by the import (no column default). */
  seq: number;
  source: string;
  name: string;
  format: LayerFormat;
  file_name: string;
  crs: string;
  geometry: LayerSource['geometry'];
  feature_count: number;
  /** [west, south, east, north], or null. */
  bbox: unknown;
  /** A grid's StoredGridMeta (layers/versions.ts); null for a vector layer. */
  grid: unknown;
  created_at: Generated<Date>;
  completed_at: Generated<Date>;
}

export interface LayerChunksTable {
  version_id: string;
  chunk_no: number;
  data: Uint8Array;
}

export interface TenantAccountsTable {
  tenant_id: string;
  plan: PlanId;
  signup_month: DateColumn;
  signup_grant_credits: number;
  created_at: Date;
  plan_changed_at: Date | null;
}

/** Append-only (a trigger refuses updates and deletes). */
export interface CreditLedgerTable {
  // `generated always as identity`: PostgreSQL refuses an insert that names it.
  id: GeneratedAlways<number>;
  tenant_id: string;
  operation: string;
  /** Negative for a refund (then `refund_of` names the row refunded). */
  credits: number;
  locations: number;
  fields: number;
  request_id: string | null;
  idempotency_key: string | null;
  refund_of: number | null;
  reference: string | null;
  created_at: Date;
}

/** The ledger's running sum per tenant and UTC month. */
export interface CreditMonthsTable {
  tenant_id: string;
  month: DateColumn;
  charged: number;
}

/** Unlogged: a tenant's billed requests per minute. */
export interface RateWindowsTable {
  tenant_id: string;
  window_start: Date;
  requests: number;
}

export interface IdempotencyKeysTable {
  tenant_id: string;
  key: string;
  operation: string;
  request_hash: string;
  ledger_id: number | null;
  response: Uint8Array;
  created_at: Date;
}

export interface RunsTable {
  id: Generated<string>;
  tenant_id: string;
  /** The submitter (a Caller), as jsonb. */
  caller: unknown;
  status: Generated<RunStatus>;
  fields: string[];
  preset: string | null;
  total: number;
  done: Generated<number>;
  chunk_count: number;
  chunks_left: number;
  credits_per_location: number;
  credits_charged: number;
  credits_refunded: Generated<number>;
  charge_ledger_id: number | null;
  error: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
}

/** A chunk of a run; its own outbox entry until `published_at` is set. */
export interface RunChunksTable {
  run_id: string;
  chunk_no: number;
  first_index: number;
  size: number;
  status: Generated<RunChunkStatus>;
  /** [[lat, lon, id], ...] as jsonb. */
  locations: unknown;
  /** NDJSON, once done. */
  results: string | null;
  lease_token: string | null;
  lease_expires_at: Date | null;
  lease_holder: string | null;
  attempts: Generated<number>;
  published_at: Date | null;
  done_at: Date | null;
}

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
