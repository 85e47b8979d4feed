import type { Kysely, Selectable } from 'kysely';
import { jobNotFound, stepNotFound } from '../errors.js';
import { isUuid } from '../input.js';
import { diligenceDb, type JobsTable, type StepsTable } from '../schema.js';

export type JobRow = Selectable<JobsTable>;
export type StepRow = Selectable<StepsTable>;

/**
 * The caller's job, locked for the rest of the transaction. Every write to a job or its steps takes
 * this lock first, so writers of one job queue up here and never interleave (D23: two claimers
 * never both see it free). Another tenant's job is not found (D2).
 */
export async function lockJob(trx: Kysely<any>, tenantId: string, jobId: string): Promise<JobRow> {
  if (!isUuid(jobId)) throw jobNotFound();
  const job = await diligenceDb(trx)
    .selectFrom('jobs')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', jobId)
    .forUpdate()
    .executeTakeFirst();
  if (!job) throw jobNotFound();
  return job;
}

/** The caller's job, unlocked (reads). */
export async function readJob(db: Kysely<any>, tenantId: string, jobId: string): Promise<JobRow> {
  if (!isUuid(jobId)) throw jobNotFound();
  const job = await diligenceDb(db).selectFrom('jobs').selectAll().where('tenant_id', '=', tenantId).where('id', '=', jobId).executeTakeFirst();
  if (!job) throw jobNotFound();
  return job;
}

/** The steps of some jobs, each job's in its run order. */
export async function stepsOf(db: Kysely<any>, jobIds: string[]): Promise<StepRow[]> {
  if (jobIds.length === 0) return [];
  return diligenceDb(db).selectFrom('steps').selectAll().where('job_id', 'in', jobIds).orderBy('job_id').orderBy('position').execute();
}

/** D22: an unknown step name is 404. Matched here rather than in SQL: the name is any path text. */
export function stepNamed(steps: StepRow[], name: string): StepRow {
  const step = steps.find((candidate) => candidate.name === name);
  if (!step) throw stepNotFound(name);
  return step;
}
