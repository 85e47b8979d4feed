import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// D30: lead requests, the deliveries that fulfil them, and the pipeline's outbox. A request and
// its event are written in one transaction (the outbox), so a crash between the two loses neither;
// the relay publishes the event to JetStream and the lead worker fulfils the request.
export const up = (db: Kysely<any>) =>
  statements(
    `create table pipeline.lead_requests (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null,
      -- Who asked: the worker acts as this caller when it ranks the market (entitlement, D16).
      caller jsonb not null,
      buy_box text not null,
      count integer not null check (count between 1 and 500),
      note text,
      status text not null default 'open' check (status in ('open', 'fulfilled', 'failed')),
      delivery_id uuid,
      failure_code text,
      failure_reason text,
      created_at timestamptz not null default now(),
      completed_at timestamptz
    )`,
    'create index lead_requests_by_tenant on pipeline.lead_requests (tenant_id, created_at desc, id)',
    // One delivery per request: a redelivered event finds it instead of making a second.
    `create table pipeline.deliveries (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null,
      lead_request_id uuid not null unique references pipeline.lead_requests (id),
      buy_box_id uuid not null,
      buy_box text not null,
      spec_hash text not null,
      query_hash text not null,
      applied_spec jsonb not null,
      market text not null,
      market_id uuid not null,
      vintage_id uuid not null,
      lead_count integer not null,
      created_at timestamptz not null default now()
    )`,
    'create index deliveries_by_tenant on pipeline.deliveries (tenant_id, created_at desc, id)',
    // A parcel is delivered to a tenant at most once (D30: never in an earlier delivery), which
    // the unique key holds even when two requests are fulfilled at the same moment.
    `create table pipeline.delivery_leads (
      delivery_id uuid not null references pipeline.deliveries (id),
      tenant_id uuid not null,
      rank integer not null,
      parcel_key text not null,
      property_id uuid not null references pipeline.properties (id),
      apn text,
      address text,
      acres double precision,
      lat double precision,
      lon double precision,
      score double precision not null,
      verdict text not null,
      review_required boolean not null,
      primary key (delivery_id, rank),
      unique (tenant_id, parcel_key)
    )`,
    // The pipeline's outbox, published to the LEADS stream by the shared relay (D27's machinery).
    `create table pipeline.outbox (
      id uuid primary key default gen_random_uuid(),
      seq bigserial not null unique,
      subject text not null,
      data jsonb not null,
      created_at timestamptz not null default now(),
      published_at timestamptz
    )`,
    'create index outbox_unpublished on pipeline.outbox (seq) where published_at is null',
    // A lead import writes thousands of properties and matches at once, each with KBs of JSON:
    // lz4 compresses them several times faster than the default pglz (as discovery's vintage
    // columns). Servers built without lz4 (PGlite among them) keep pglz.
    `do $$ begin
       alter table pipeline.properties alter column parcel set compression lz4;
       alter table pipeline.buy_box_matches alter column evaluation set compression lz4;
       alter table pipeline.buy_box_matches alter column applied_spec set compression lz4;
     exception when feature_not_supported then null;
     end $$`,
  )(db);

export const down = (db: Kysely<any>) =>
  statements(
    'alter table pipeline.properties alter column parcel set compression default',
    'alter table pipeline.buy_box_matches alter column evaluation set compression default',
    'alter table pipeline.buy_box_matches alter column applied_spec set compression default',
    'drop table pipeline.outbox',
    'drop table pipeline.delivery_leads',
    'drop table pipeline.deliveries',
    'drop table pipeline.lead_requests',
  )(db);
