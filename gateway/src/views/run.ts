import type { catalogv1 } from '@landscreen/proto';

/** The REST shape of a run (D35); the one place a Run message becomes JSON. */
export function runRecord(run: catalogv1.Run | undefined) {
  if (!run) throw new Error('the catalog service answered without a run');
  return {
    run_id: run.id,
    status: run.status,
    fields: run.fields,
    preset: run.preset ?? null,
    progress: { done: run.done, total: run.total },
    credits: { per_location: Number(run.creditsPerLocation), charged: Number(run.creditsCharged), refunded: Number(run.creditsRefunded) },
    created_at: run.createdAt,
    started_at: run.startedAt || null,
    finished_at: run.finishedAt || null,
    error: run.error || null,
  };
}
