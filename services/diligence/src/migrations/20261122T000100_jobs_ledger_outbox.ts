import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// A diligence job per pipeline item (D20: written by the promotion transaction), its ordered steps
// (D22), the cost ledger (D24, D26: money as numeric(12,4), no actor column), revealed contacts
// (D28) and the outbox the relay publishes to JetStream (D27).
export const up = (db: Kysely<any>) =>
  statements(
    `create table diligence.jobs (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null,
      -- Carried in every event, so a worker can address the tenant's API (X-Tenant) without a lookup.
      tenant_slug text not null,
      property_id uuid not null,
      pipeline_item_id uuid not null,
      market_id uuid not null,
      vintage_id uuid not null,
      parcel_key text not null,
      -- The parcel as it was promoted (a ParcelCandidate): what the built-in steps work from.
      parcel jsonb,
      status text not null default 'queued'
        check (status in ('queued', 'authorized', 'running', 'ready', 'partial', 'needs_review', 'failed')),
      max_cost_usd numeric(12,4),
      authorize_note text,
      authorized_at timestamptz,
      claim_token uuid,
      claimed_by text,
      lease_expires_at timestamptz,
      cost_usd numeric(12,4) not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (tenant_id, property_id)
    )`,
    'create index jobs_by_status on diligence.jobs (tenant_id, status, created_at, id)',
    `create table diligence.steps (
      job_id uuid not null references diligence.jobs (id) on delete cascade,
      name text not null,
      position integer not null,
      status text not null default 'pending'
        check (status in ('pending', 'running', 'ready', 'partial', 'needs_review', 'failed')),
      attempts integer not null default 0,
      -- The claim a running step was started under: a repeated start under it is not a new attempt.
      claim_token uuid,
      provider text,
      provider_version text,
      provider_request_id text,
      data jsonb,
      citations jsonb,
      cost_usd numeric(12,4) not null default 0,
      error_code text,
      error_message text,
      started_at timestamptz,
      completed_at timestamptz,
      primary key (job_id, name)
    )`,
    `create table diligence.cost_ledger (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null,
      job_id uuid references diligence.jobs (id) on delete set null,
      step text,
      property_id uuid,
      provider text not null,
      provider_request_id text,
      amount_usd numeric(12,4) not null check (amount_usd >= 0),
      recorded_at timestamptz not null default now()
    )`,
    'create index cost_ledger_by_day on diligence.cost_ledger (tenant_id, recorded_at)',
    // Reconcile is idempotent per (job, step, provider_request_id): the ledger can hold that row once.
    `create unique index cost_ledger_once_per_request on diligence.cost_ledger (job_id, step, provider_request_id)
      where provider_request_id is not null`,
    `create table diligence.contacts (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null,
      property_id uuid not null,
      contact jsonb not null,
      provider text not null,
      provider_request_id text,
      -- The cost-ledger row written with the contact (none when it cost nothing); the contact is
      -- inserted first, so that a repeated reveal finds it before writing a second ledger row.
      ledger_id uuid references diligence.cost_ledger (id) deferrable initially deferred,
      created_at timestamptz not null default now()
    )`,
    'create index contacts_by_property on diligence.contacts (tenant_id, property_id, created_at)',
    // A reveal repeated with the same provider request is answered from the first one: one contact,
    // one ledger row.
    `create unique index contacts_once_per_request on diligence.contacts (tenant_id, property_id, provider, provider_request_id)
      where provider_request_id is not null`,
    `create table diligence.outbox (
      id uuid primary key default gen_random_uuid(),
      seq bigserial not null unique,
      subject text not null,
      data jsonb not null,
      created_at timestamptz not null default now(),
      published_at timestamptz
    )`,
    'create index outbox_unpublished on diligence.outbox (seq) where published_at is null',
  )(db);

export const down = (db: Kysely<any>) =>
  statements(
    'drop table diligence.outbox',
    'drop table diligence.contacts',
    'drop table diligence.cost_ledger',
    'drop table diligence.steps',
    'drop table diligence.jobs',
  )(db);
