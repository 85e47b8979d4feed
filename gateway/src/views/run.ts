import type { Run, RunCreated, RunList, RunQuote } from '@landscreen/api-schemas';
import type { catalogv1 } from '@landscreen/proto';

/** The REST shape of a run (D35); the one place a Run message becomes JSON. */
export function runJson(run: catalogv1.Run | undefined): Run {
  if (!run) throw new Error('the catalog service answered without a run');
  return {
    run_id: run.id,
    status: run.status as Run['status'],
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

/** A run just submitted: its id, queued. */
export function runCreatedJson(run: catalogv1.Run | undefined): RunCreated {
  return { run_id: runJson(run).run_id, status: 'queued' };
}

/** A dry run's quote: what the run would be charged; nothing queued. */
export function runQuoteJson(quote: catalogv1.RunQuote): RunQuote {
  return { run_id: null, status: 'quote', credits: { charged: 0, per_location: Number(quote.perLocation), required: Number(quote.required), balance: Number(quote.balance) } };
}

/** A page of the tenant's runs, newest first. */
export function runListJson(answer: catalogv1.ListRunsResponse): RunList {
  return { runs: answer.runs.map(runJson), next_cursor: answer.nextCursor ?? null };
}
