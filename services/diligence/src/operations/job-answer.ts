import type { diligencev1 } from '@landscreen/proto';
import type { DiligenceDb } from '../schema.js';
import { stepsOf, type JobRow, type StepRow } from '../store/jobs.js';
import { jobView } from '../views/job-view.js';

/**
 * The job with its steps as they are now (read inside the transaction that changed them), or as
 * the caller already holds them when nothing changed them since it read them.
 */
export async function jobAnswer(db: DiligenceDb, job: JobRow, now: Date, steps?: StepRow[]): Promise<diligencev1.Job> {
  return jobView(job, steps ?? (await stepsOf(db, [job.id])), now);
}

/** The answers of the RPCs that move a job: each is the job as it is afterwards. */
type MoveAnswer =
  | diligencev1.AuthorizeJobResponse
  | diligencev1.StartStepResponse
  | diligencev1.CompleteStepResponse
  | diligencev1.FailStepResponse
  | diligencev1.ReconcileStepResponse;

/** The same, as the answer message of the RPC named by `typeName`. */
export async function movedJobAnswer<T extends MoveAnswer['$typeName']>(
  typeName: T,
  db: DiligenceDb,
  job: JobRow,
  now: Date,
  steps?: StepRow[],
): Promise<Extract<MoveAnswer, { $typeName: T }>> {
  return { $typeName: typeName, job: await jobAnswer(db, job, now, steps) } as Extract<MoveAnswer, { $typeName: T }>;
}
