import type { Selectable } from 'kysely';
import { jobNotFound, stepNotFound } from '../errors.js';
import { isUuid } from '../input.js';
import type { DiligenceDb, DiligenceTransaction, JobsTable, StepsTable } from '../schema.js';

export type JobRow = Selectable<JobsTable>;
export type StepRow = Selectable<StepsTable>;

/** The caller's job by id; another tenant's, or an id that is no UUID, is not found (D2). */
const jobOfTenant = (db: DiligenceDb, tenantId: string, jobId: string) =>
  db.selectFrom('jobs').selectAll().where('tenant_id', '=', tenantId).where('id', '=', jobId);

/**
 * The caller's job, locked for the rest of the transaction. Every write to a job or its steps takes
 * this lock first, so writers of one job queue up here and never interleave (D23: two claimers
 * never both see it free).
 */
export async function lockJob(trx: DiligenceTransaction, tenantId: string, jobId: string): Promise<JobRow> {
  if (!isUuid(jobId)) throw jobNotFound();
  return (await jobOfTenant(trx, tenantId, jobId).forUpdate().executeTakeFirst()) ?? throwJobNotFound();
}

/** The caller's job, unlocked (reads). */
export async function readJob(db: DiligenceDb, tenantId: string, jobId: string): Promise<JobRow> {
  if (!isUuid(jobId)) throw jobNotFound();
  return (await jobOfTenant(db, tenantId, jobId).executeTakeFirst()) ?? throwJobNotFound();
}

function throwJobNotFound(): never {
  throw jobNotFound();
}

/** The steps of some jobs, each job's in its run order. */
export async function stepsOf(db: DiligenceDb, jobIds: string[]): Promise<StepRow[]> {
  if (jobIds.length === 0) return [];
  return db.selectFrom('steps').selectAll().where('job_id', 'in', jobIds).orderBy('job_id').orderBy('position').execute();
}

/** D22: an unknown step name is 404. Matched here rather than in SQL: the name is any path text. */
export function stepNamed(steps: StepRow[], name: string): StepRow {
  const step = steps.find((candidate) => candidate.name === name);
  if (!step) throw stepNotFound(name);
  return step;
}
