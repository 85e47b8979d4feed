import type { Kysely } from 'kysely';
import { jsonBytes } from '@landscreen/rpc';
import { stepsOf, type JobRow } from '../store/jobs.js';
import { jobView } from '../views/job-view.js';

/** The job with its steps as they are now (read inside the transaction that changed them). */
export async function jobAnswer(db: Kysely<any>, job: JobRow, now: Date) {
  return jobView(job, await stepsOf(db, [job.id]), now);
}

/** The same, as the JSON bytes an RPC answers. */
export async function jobBody(db: Kysely<any>, job: JobRow, now: Date): Promise<{ bodyJson: Uint8Array }> {
  return { bodyJson: jsonBytes(await jobAnswer(db, job, now)) };
}
