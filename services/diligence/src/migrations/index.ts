import type { MigrationSet } from '@landscreen/db';
import * as createSchema from './20261122T000000_create_schema.js';
import * as jobsLedgerOutbox from './20261122T000100_jobs_ledger_outbox.js';
import * as screenStatusView from './20261122T000200_screen_status_view.js';
import * as outboxTraceparent from './20261128T000000_outbox_traceparent.js';

/** Every migration of the "diligence" schema, in order. New migrations are appended here. */
export const migrations: MigrationSet = {
  '20261122T000000_create_schema': createSchema,
  '20261122T000100_jobs_ledger_outbox': jobsLedgerOutbox,
  '20261122T000200_screen_status_view': screenStatusView,
  '20261128T000000_outbox_traceparent': outboxTraceparent,
};
