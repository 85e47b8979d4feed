import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// Markets own immutable vintages; exactly one vintage per market is current (D16). Parcels belong
// to a vintage and are never updated. A parcel row holds what SQL needs (keys, APN, address,
// location, geometry, the typed facts as columns); every fact of every parcel — typed, free and
// derived — is stored by column with the vintage (vintage_columns), which is what ranking and
// evidence read.
export const up = (db: Kysely<any>) =>
  statements(
    'create extension if not exists pg_trgm',
    `create table discovery.markets (
      id uuid primary key default gen_random_uuid(),
      slug text not null unique,
      name text not null,
      current_vintage_id uuid,
      created_at timestamptz not null default now()
    )`,
    `create table discovery.vintages (
      id uuid primary key default gen_random_uuid(),
      market_id uuid not null references discovery.markets (id) on delete cascade,
      status text not null check (status in ('loading', 'ready', 'failed')),
      source text not null,
      parcel_count integer not null default 0,
      free_fact_fields text[] not null default '{}',
      derived_fields text[] not null default '{}',
      created_at timestamptz not null default now(),
      completed_at timestamptz
    )`,
    `alter table discovery.markets add constraint markets_current_vintage
      foreign key (current_vintage_id) references discovery.vintages (id)`,
    // Parcels are partitioned by vintage: an import loads its vintage into a table of its own
    // with no index, then attaches it, which builds the indexes in bulk (operations/import-vintage.ts).
    `create table discovery.parcels (
      vintage_id uuid not null,
      parcel_key text not null,
      apn text,
      apn_normalised text,
      address text,
      address_normalised text,
      lat double precision,
      lon double precision,
      bbox json,
      geometry json,
      acres double precision,
      developable_acres double precision,
      zoning text,
      land_use text,
      owner_name text,
      assessed_value_usd double precision,
      provenance json not null default '{}',
      primary key (vintage_id, parcel_key)
    ) partition by list (vintage_id)`,
    'create index parcels_apn on discovery.parcels (vintage_id, apn_normalised)',
    'create index parcels_address on discovery.parcels (vintage_id, address_normalised)',
    'create index parcels_address_trgm on discovery.parcels using gin (address_normalised gin_trgm_ops)',
    `create table discovery.entitlements (
      tenant_id uuid not null,
      market_id uuid not null references discovery.markets (id) on delete cascade,
      created_at timestamptz not null default now(),
      primary key (tenant_id, market_id)
    )`,
    `create table discovery.buy_boxes (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null,
      name text not null,
      description text,
      spec jsonb not null,
      spec_hash text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      unique (tenant_id, name)
    )`,
  )(db);

export const down = (db: Kysely<any>) =>
  statements(
    'drop table discovery.buy_boxes',
    'drop table discovery.entitlements',
    'drop table discovery.parcels',
    'alter table discovery.markets drop constraint markets_current_vintage',
    'drop table discovery.vintages',
    'drop table discovery.markets',
  )(db);
