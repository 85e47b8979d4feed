import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// Asynchronous batch runs (D35). A run is charged once at submission; its locations are
// split into chunks that batch workers lease, evaluate and complete one at a time.
//
// The chunk row is its own outbox (D27's pattern without a second table): `published_at` is null
// until the relay has handed the chunk's event to JetStream, so a crash between the run's commit
// and the publish loses nothing. A chunk moves `pending` → `done` (its results written in the
// same statement) or `pending` → `cancelled`, never back; the lease (`lease_token`,
// `lease_expires_at`, from the service's clock) fences which worker may complete it.
export const up = (db: Kysely<any>) =>
  statements(
    `create table catalog.runs (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null,
      -- Who submitted it: workers evaluate on its behalf (parcel fields read the parcels it may read).
      caller jsonb not null,
      status text not null default 'queued'
        check (status in ('queued', 'running', 'succeeded', 'cancelled', 'failed')),
      fields text[] not null,
      preset text,
      total integer not null check (total > 0),
      done integer not null default 0,
      chunk_count integer not null,
      chunks_left integer not null,
      credits_per_location bigint not null,
      credits_charged bigint not null,
      credits_refunded bigint not null default 0,
      -- The credit-ledger row that charged the run: what a refund names.
      charge_ledger_id bigint,
      error text,
      created_at timestamptz not null,
      started_at timestamptz,
      finished_at timestamptz
    )`,
    // GET /v1/runs: the tenant's runs, newest first.
    'create index runs_by_tenant on catalog.runs (tenant_id, created_at desc, id desc)',
    `create table catalog.run_chunks (
      run_id uuid not null references catalog.runs (id) on delete cascade,
      chunk_no integer not null,
      -- Index of the chunk's first location in the run (input order).
      first_index integer not null,
      size integer not null,
      status text not null default 'pending' check (status in ('pending', 'done', 'cancelled')),
      -- [[lat, lon, id], ...] as the caller sent them.
      locations jsonb not null,
      -- The result objects as NDJSON (one line per location, input order), written when done.
      results text,
      lease_token uuid,
      lease_expires_at timestamptz,
      -- The worker that holds the lease (host-pid-suffix), kept once done: who wrote the chunk.
      lease_holder text,
      attempts integer not null default 0,
      published_at timestamptz,
      done_at timestamptz,
      primary key (run_id, chunk_no)
    )`,
    'create index run_chunks_unpublished on catalog.run_chunks (run_id, chunk_no) where published_at is null',
    // A done chunk's results are about 1 KB per location at 20 fields: lz4 compresses them fast.
    `do $$ begin
       alter table catalog.run_chunks alter column results set compression lz4;
       alter table catalog.run_chunks alter column locations set compression lz4;
     exception when feature_not_supported then null;
     end $$`,
  )(db);

export const down = (db: Kysely<any>) => statements('drop table catalog.run_chunks', 'drop table catalog.runs')(db);
