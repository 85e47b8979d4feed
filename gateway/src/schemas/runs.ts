import { Type } from '@sinclair/typebox';
import { BilledHeaders } from './catalog.js';
import { Closed, Nullable, Str, Uuid } from './common.js';

/** The headers of POST /v1/runs: a billed POST's (tenant, Idempotency-Key, D34) and what the body is. */
export const RunHeaders = Type.Object({
  ...BilledHeaders.properties,
  'content-type': Type.Optional(Type.String({ description: 'application/json, or an upload: text/csv, application/geo+json, application/x-ndjson.' })),
});

/** With an upload the body is the file, so the field selection travels in the query string. */
export const RunUploadQuery = Type.Object({
  fields: Type.Optional(Str(1, 50_000, { description: 'Upload only: catalog field names, comma-separated.' })),
  preset: Type.Optional(Str(1, 64, { description: 'Upload only: a named bundle of fields.' })),
  dry_run: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'Upload only: answer the quote, queue nothing.' })),
});

export const RunsQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
  cursor: Type.Optional(Str(1, 500, { description: 'The next_cursor of the previous page.' })),
});

export const RunResultsQuery = Type.Object({
  format: Type.Optional(Type.Union(['ndjson', 'csv', 'geojson'].map((format) => Type.Literal(format)), { default: 'ndjson' })),
});

export const RunPath = Type.Object({ run_id: Type.String() });

export const RunCreated = Closed(
  {
    run_id: Uuid(),
    status: Type.Literal('queued'),
  },
  { $id: 'RunCreated', description: 'D35: the run is charged and queued.' },
);

export const RunQuote = Closed(
  {
    run_id: Type.Null(),
    status: Type.Literal('quote'),
    credits: Closed({ charged: Type.Literal(0), per_location: Type.Integer(), required: Type.Integer(), balance: Type.Integer() }),
  },
  { $id: 'RunQuote', description: 'A dry run: what the run would be charged, nothing queued.' },
);

export const Run = Closed(
  {
    run_id: Uuid(),
    status: Type.Union(['queued', 'running', 'succeeded', 'cancelled', 'failed'].map((status) => Type.Literal(status)), {
      description: 'queued → running → succeeded | failed; cancelled by DELETE from queued or running.',
    }),
    fields: Type.Array(Type.String(), { description: 'The fields each location is answered with, in answer order.' }),
    preset: Nullable(Type.String()),
    progress: Closed({ done: Type.Integer({ description: 'Locations whose results are written.' }), total: Type.Integer() }),
    credits: Closed({
      per_location: Type.Integer(),
      charged: Type.Integer({ description: 'Charged once, at submission.' }),
      refunded: Type.Integer({ description: 'Given back for the locations a cancel (or a failure) left unprocessed.' }),
    }),
    created_at: Type.String({ format: 'date-time' }),
    started_at: Nullable(Type.String({ format: 'date-time' }), { description: 'When a worker first took a chunk.' }),
    finished_at: Nullable(Type.String({ format: 'date-time' })),
    error: Nullable(Type.String(), { description: 'Why the run failed.' }),
  },
  { $id: 'Run' },
);

export const RunList = Closed(
  { runs: Type.Array(Run, { description: 'Newest first.' }), next_cursor: Nullable(Type.String()) },
  { $id: 'RunList' },
);
