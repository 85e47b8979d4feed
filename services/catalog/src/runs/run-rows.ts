import { sql } from 'kysely';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { catalogv1 } from '@landscreen/proto';
import { isUuid, notFound } from '@landscreen/rpc';
import type { CatalogDb, CatalogTransaction } from '../schema.js';
import type { RunStatus } from './run-status.js';

export { FINAL_STATUSES, RUN_STATUSES, type RunStatus } from './run-status.js';


export interface RunRow {
  id: string;
  tenant_id: string;
  status: RunStatus;
  fields: string[];
  preset: string | null;
  total: number;
  done: number;
  chunk_count: number;
  chunks_left: number;
  credits_per_location: string | number;
  credits_charged: string | number;
  credits_refunded: string | number;
  charge_ledger_id: string | number | null;
  error: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
}

const RUN_COLUMNS = sql.raw(
  'id, tenant_id, status, fields, preset, total, done, chunk_count, chunks_left, credits_per_location, credits_charged, credits_refunded, charge_ledger_id, error, created_at, started_at, finished_at',
);

export const runNotFound = () => notFound('run_not_found', 'Run not found.');

/** The run of this tenant; another tenant's run, or an id that is not a UUID, is not found (D2). */
export function readRun(db: CatalogDb, tenantId: string, runId: string): Promise<RunRow>;
/** The same, locked (`for update`) until `trx` commits: only a transaction can hold the lock. */
export function readRun(trx: CatalogTransaction, tenantId: string, runId: string, lock: true): Promise<RunRow>;
export async function readRun(db: CatalogDb, tenantId: string, runId: string, lock = false): Promise<RunRow> {
  if (!isUuid(runId)) throw runNotFound();
  const { rows } = await sql<RunRow>`
    select ${RUN_COLUMNS} from catalog.runs where id = ${runId} and tenant_id = ${tenantId}
    ${lock ? sql`for update` : sql``}`.execute(db);
  if (!rows[0]) throw runNotFound();
  return rows[0];
}

/** The tenant's runs, newest first, after the (created_at, id) cursor when there is one. */
export async function listRuns(db: CatalogDb, tenantId: string, limit: number, after?: { createdAt: string; id: string }): Promise<RunRow[]> {
  const { rows } = await sql<RunRow>`
    select ${RUN_COLUMNS} from catalog.runs
    where tenant_id = ${tenantId}
      ${after ? sql`and (created_at, id) < (${after.createdAt}::timestamptz, ${after.id}::uuid)` : sql``}
    order by created_at desc, id desc
    limit ${limit}`.execute(db);
  return rows;
}

const iso = (value: Date | string | null): string => (value === null ? '' : new Date(value).toISOString());

export function runMessage(row: RunRow): MessageInitShape<typeof catalogv1.RunSchema> {
  return {
    id: row.id,
    status: row.status,
    fields: row.fields,
    preset: row.preset ?? undefined,
    total: row.total,
    done: row.done,
    creditsPerLocation: BigInt(row.credits_per_location),
    creditsCharged: BigInt(row.credits_charged),
    creditsRefunded: BigInt(row.credits_refunded),
    createdAt: iso(row.created_at),
    startedAt: iso(row.started_at),
    finishedAt: iso(row.finished_at),
    error: row.error ?? '',
  };
}
