import type { Generated, Kysely, Transaction } from 'kysely';
import { schemaView, type ProcessDatabase } from '@landscreen/db';
import type { JobStatus } from './data-access/steps.js';

/** The PostgreSQL schema this service owns. */
export const SCHEMA = 'diligence';

export type StepStatus = 'pending' | 'running' | 'ready' | 'partial' | 'needs_review' | 'failed';

// Money columns are numeric(12,4): both drivers hand them over as decimal strings ("12.5000").
export interface JobsTable {
  id: Generated<string>;
  tenant_id: string;
  tenant_slug: string;
  property_id: string;
  pipeline_item_id: string;
  market_id: string;
  vintage_id: string;
  parcel_key: string;
  /** The promoted parcel (a ParcelCandidate); shown only by GET job. */
  parcel: unknown;
  status: Generated<JobStatus>;
  max_cost_usd: string | null;
  authorize_note: string | null;
  authorized_at: Date | null;
  claim_token: string | null;
  claimed_by: string | null;
  lease_expires_at: Date | null;
  cost_usd: Generated<string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface StepsTable {
  job_id: string;
  name: string;
  position: number;
  status: Generated<StepStatus>;
  attempts: Generated<number>;
  claim_token: string | null;
  provider: string | null;
  provider_version: string | null;
  provider_request_id: string | null;
  data: unknown;
  citations: unknown;
  cost_usd: Generated<string>;
  error_code: string | null;
  error_message: string | null;
  started_at: Date | null;
  completed_at: Date | null;
}

export interface CostLedgerTable {
  id: Generated<string>;
  tenant_id: string;
  job_id: string | null;
  /** The step the cost paid for; null for a reveal (D28). */
  step: string | null;
  property_id: string | null;
  provider: string;
  provider_request_id: string | null;
  amount_usd: string;
  recorded_at: Generated<Date>;
}

export interface ContactsTable {
  id: Generated<string>;
  tenant_id: string;
  property_id: string;
  contact: unknown;
  provider: string;
  provider_request_id: string | null;
  ledger_id: string | null;
  created_at: Generated<Date>;
}

export interface OutboxTable {
  id: Generated<string>;
  seq: Generated<number>;
  subject: string;
  data: unknown;
  created_at: Generated<Date>;
  published_at: Date | null;
  /** The writing span's W3C traceparent (null when tracing is off). */
  traceparent: string | null;
}

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
