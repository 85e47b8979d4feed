import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// The span that accepted a run (its W3C `traceparent`, null when tracing is off): the chunk relay
// publishes the run's chunks under it, so the runs workers' spans join the request's trace. The
// partial index serves the runs-in-flight gauge's count at every scrape.
export const up = (db: Kysely<any>) =>
  statements(
    'alter table catalog.runs add column traceparent text',
    "create index runs_live on catalog.runs (status) where status in ('queued', 'running')",
  )(db);

export const down = (db: Kysely<any>) =>
  statements(
    'drop index catalog.runs_live',
    'alter table catalog.runs drop column traceparent',
  )(db);
