import { Type, type Static } from '@sinclair/typebox';
import { Closed, Nullable, OneOf, Timestamp, Uuid } from './building-blocks.js';

/** D35: the asynchronous batch runs. */
export const RUN_STATUSES = ['queued', 'running', 'succeeded', 'cancelled', 'failed'] as const;

export const RunCreated = Closed({ run_id: Uuid(), status: Type.Literal('queued') }, { $id: 'RunCreated', description: 'D35: the run is charged and queued.' });
export type RunCreated = Static<typeof RunCreated>;

export const RunQuote = Closed(
  {
    run_id: Type.Null(),
    status: Type.Literal('quote'),
    credits: Closed({ charged: Type.Literal(0), per_location: Type.Integer(), required: Type.Integer(), balance: Type.Integer() }),
  },
  { $id: 'RunQuote', description: 'A dry run: what the run would be charged, nothing queued.' },
);
export type RunQuote = Static<typeof RunQuote>;

export const Run = Closed(
  {
    run_id: Uuid(),
    status: OneOf(RUN_STATUSES, { description: 'queued → running → succeeded | failed; cancelled by DELETE from queued or running.' }),
    fields: Type.Array(Type.String(), { description: 'The fields each location is answered with, in answer order.' }),
    preset: Nullable(Type.String()),
    progress: Closed({ done: Type.Integer({ description: 'Locations whose results are written.' }), total: Type.Integer() }),
    credits: Closed({
      per_location: Type.Integer(),
      charged: Type.Integer({ description: 'Charged once, at submission.' }),
      refunded: Type.Integer({ description: 'Given back for the locations a cancel (or a failure) left unprocessed.' }),
    }),
    created_at: Timestamp(),
    started_at: Nullable(Timestamp(), { description: 'When a worker first took a chunk.' }),
    finished_at: Nullable(Timestamp()),
    error: Nullable(Type.String(), { description: 'Why the run failed.' }),
  },
  { $id: 'Run' },
);
export type Run = Static<typeof Run>;

export const RunList = Closed({ runs: Type.Array(Run, { description: 'Newest first.' }), next_cursor: Nullable(Type.String()) }, { $id: 'RunList' });
export type RunList = Static<typeof RunList>;
