import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// Plans, the credit ledger, rate windows and idempotency keys (D34).
//
// - `tenant_accounts`: a tenant's plan (a tenant without a row is on `free`) and its sign-up
//   grant, fixed once when billing first meets the tenant.
// - `credit_ledger` is append-only (a trigger refuses updates and deletes): one row per billed
//   request; a refund is a row with negative credits naming the row it refunds (`refund_of`).
// - `credit_months` is the ledger's running sum per tenant and UTC month, written in the same
//   transaction as each ledger row. Its conditional upsert is the atomic balance check: the row
//   lock serialises a tenant's concurrent charges, and the `where` refuses the one that would
//   overdraw, so the balance is never negative however many replicas charge at once.
// - `rate_windows` counts a tenant's billed requests per minute (fixed windows from the
//   service's clock), shared by every replica; unlogged (emptied by a crash, never fsynced).
// - `idempotency_keys` holds the answer of a keyed request for 24 h, written in the charge's
//   transaction, so a replay never charges and a concurrent duplicate waits for the first.
export const up = (db: Kysely<any>) =>
  statements(
    `create table catalog.tenant_accounts (
      tenant_id uuid primary key,
      plan text not null check (plan in ('free', 'build', 'growth', 'scale', 'market')),
      signup_month date not null,
      signup_grant_credits bigint not null check (signup_grant_credits >= 0),
      created_at timestamptz not null,
      plan_changed_at timestamptz
    )`,
    `create table catalog.credit_ledger (
      id bigint generated always as identity primary key,
      tenant_id uuid not null,
      operation text not null,
      credits bigint not null,
      locations integer not null check (locations >= 0),
      fields integer not null check (fields >= 0),
      request_id text,
      idempotency_key text,
      refund_of bigint references catalog.credit_ledger (id),
      reference text,
      created_at timestamptz not null,
      check ((refund_of is null) = (credits >= 0))
    )`,
    'create index credit_ledger_by_month on catalog.credit_ledger (tenant_id, created_at)',
    'create index credit_ledger_refunds on catalog.credit_ledger (refund_of) where refund_of is not null',
    `create function catalog.credit_ledger_append_only() returns trigger language plpgsql as $$
     begin
       raise exception 'catalog.credit_ledger is append-only (% refused)', tg_op;
     end $$`,
    `create trigger credit_ledger_append_only before update or delete on catalog.credit_ledger
       for each row execute function catalog.credit_ledger_append_only()`,
    `create table catalog.credit_months (
      tenant_id uuid not null,
      month date not null,
      charged bigint not null,
      primary key (tenant_id, month)
    )`,
    // Unlogged: a window is worth nothing after a crash (it is at most a minute old), and a
    // statement writing only unlogged rows commits without waiting for a WAL flush, so the rpm
    // count costs a billed request no fsync of its own.
    `create unlogged table catalog.rate_windows (
      tenant_id uuid not null,
      window_start timestamptz not null,
      requests integer not null,
      primary key (tenant_id, window_start)
    )`,
    `create table catalog.idempotency_keys (
      tenant_id uuid not null,
      key text not null,
      operation text not null,
      request_hash text not null,
      ledger_id bigint references catalog.credit_ledger (id),
      response bytea not null,
      created_at timestamptz not null,
      primary key (tenant_id, key)
    )`,
    // A tenant's expired keys are cleared when it claims a new one.
    'create index idempotency_keys_by_age on catalog.idempotency_keys (tenant_id, created_at)',
  )(db);

export const down = (db: Kysely<any>) =>
  statements(
    'drop table catalog.idempotency_keys',
    'drop table catalog.rate_windows',
    'drop table catalog.credit_months',
    'drop table catalog.credit_ledger',
    'drop function catalog.credit_ledger_append_only()',
    'drop table catalog.tenant_accounts',
  )(db);
