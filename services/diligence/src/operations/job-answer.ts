import type { Kysely } from 'kysely';
import { jsonBytes } from '@landscreen/rpc';
import { stepsOf, type JobRow, type StepRow } from '../store/jobs.js';
import { jobView } from '../views/job-view.js';

/**
 * The job with its steps as they are now (read inside the transaction that changed them), or as
 * the caller already holds them when nothing changed them since it read them.
 */
export async function jobAnswer(db: Kysely<any>, job: JobRow, now: Date, steps?: StepRow[]) {
  return jobView(job, steps ?? (await stepsOf(db, [job.id])), now);
}

/** The same, as the JSON bytes an RPC answers. */
export async function jobBody(db: Kysely<any>, job: JobRow, now: Date, steps?: StepRow[]): Promise<{ bodyJson: Uint8Array }> {
  return { bodyJson: jsonBytes(await jobAnswer(db, job, now, steps)) };
}
