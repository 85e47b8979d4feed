import type { Selectable } from 'kysely';
import type { MessageInitShape } from '@bufbuild/protobuf';
import type { catalogv1 } from '@landscreen/proto';
import { isUuid, notFound } from '@landscreen/rpc';
import type { CatalogDb, CatalogTransaction, RunsTable } from '../schema.js';

export { FINAL_STATUSES, RUN_STATUSES, type RunStatus } from './run-status.js';

/** The columns a run is answered with. */
export const RUN_COLUMNS = [
  'id', 'tenant_id', 'status', 'fields', 'preset', 'total', 'done', 'chunk_count', 'chunks_left', 'credits_per_location',
  'credits_charged', 'credits_refunded', 'charge_ledger_id', 'error', 'created_at', 'started_at', 'finished_at',
] as const satisfies readonly (keyof RunsTable)[];

export type RunRow = Pick<Selectable<RunsTable>, (typeof RUN_COLUMNS)[number]>;

export const runNotFound = () => notFound('run_not_found', 'Run not found.');

/** The run of this tenant; another tenant's run, or an id that is not a UUID, is not found (D2). */
export function readRun(db: CatalogDb, tenantId: string, runId: string): Promise<RunRow>;
/** The same, locked (`for update`) until `trx` commits: only a transaction can hold the lock. */
export function readRun(trx: CatalogTransaction, tenantId: string, runId: string, lock: true): Promise<RunRow>;
export async function readRun(db: CatalogDb, tenantId: string, runId: string, lock = false): Promise<RunRow> {
  if (!isUuid(runId)) throw runNotFound();
  const query = db.selectFrom('runs').select(RUN_COLUMNS).where('id', '=', runId).where('tenant_id', '=', tenantId);
  const row = await (lock ? query.forUpdate() : query).executeTakeFirst();
  if (!row) throw runNotFound();
  return row;
}

/** The tenant's runs, newest first, after the (created_at, id) cursor when there is one. */
export async function listRuns(db: CatalogDb, tenantId: string, limit: number, after?: { createdAt: string; id: string }): Promise<RunRow[]> {
  let query = db.selectFrom('runs').select(RUN_COLUMNS).where('tenant_id', '=', tenantId);
  if (after) {
    query = query.where((eb) =>
      eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(eb.cast<Date>(eb.val(after.createdAt), 'timestamptz'), eb.cast<string>(eb.val(after.id), 'uuid'))),
    );
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
}

const iso = (value: Date | null): string => (value === null ? '' : value.toISOString());

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
