import type { Generated, Kysely, Transaction } from 'kysely';
import { schemaView, type Narrowed, type ProcessDatabase } from '@landscreen/db';
import type * as tables from './tables.generated.js';
import type { JobStatus } from './data-access/steps.js';

/** The PostgreSQL schema this service owns. */
export const SCHEMA = 'diligence';

export type StepStatus = 'pending' | 'running' | 'ready' | 'partial' | 'needs_review' | 'failed';

// The tables as the migrations make them (`tables.generated.ts`, written by `npm run
// generate:tables`; CI fails when it is stale), narrowed where the code knows more. Money columns
// are numeric(12,4): both drivers hand them over as decimal strings ("12.5000").

/** A job; `parcel` is the promoted parcel (a ParcelCandidate), shown only by GET job. */
export type JobsTable = Narrowed<tables.DiligenceJobs, { status: Generated<JobStatus> }>;
export type StepsTable = Narrowed<tables.DiligenceSteps, { status: Generated<StepStatus> }>;
/** `step` is the step the cost paid for; null for a reveal (D28). */
export type CostLedgerTable = tables.DiligenceCostLedger;
export type ContactsTable = tables.DiligenceContacts;
export type OutboxTable = tables.DiligenceOutbox;

/**
 * `diligence.screen_statuses`, the read model the schema publishes for the pipeline's board (D21):
 * a job's status by property. Its columns are a job's, never null (a view's are all nullable to
 * PostgreSQL's catalog).
 */
export type ScreenStatusesView = Narrowed<tables.DiligenceScreenStatuses, { tenant_id: string; property_id: string; job_id: string; status: JobStatus }>;

export interface DiligenceDatabase {
  jobs: JobsTable;
  steps: StepsTable;
  cost_ledger: CostLedgerTable;
  contacts: ContactsTable;
  outbox: OutboxTable;
}

/** The service's view of the database: its own tables, every query in the "diligence" schema. */
export type DiligenceDb = Kysely<DiligenceDatabase>;

/**
 * A transaction on that view. What must hold a row lock until commit, or commit together with
 * another write (a result and its ledger row, a change and its outbox event), takes this type:
 * called with the plain database it does not compile.
 */
export type DiligenceTransaction = Transaction<DiligenceDatabase>;

/** The service's view of the shared database (made once, when the service is built). */
export const diligenceDb = (db: ProcessDatabase): DiligenceDb => schemaView<DiligenceDatabase>(db, SCHEMA);
