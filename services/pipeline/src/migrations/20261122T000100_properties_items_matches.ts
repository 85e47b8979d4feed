import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// D19: one property per tenant and parcel_key, one pipeline item per property, one buy-box match
// per property and spec_hash. The unique keys are what make a repeated or concurrent promotion
// find the rows the first one wrote instead of writing its own.
export const up = (db: Kysely<any>) =>
  statements(
    `create table pipeline.properties (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null,
      market_id uuid not null,
      market text not null,
      parcel_key text not null,
      vintage_id uuid not null,
      apn text,
      address text,
      lat double precision,
      lon double precision,
      acres double precision,
      -- The parcel as it was when the property was made (a ParcelCandidate).
      parcel jsonb not null,
      created_at timestamptz not null default now(),
      unique (tenant_id, parcel_key)
    )`,
    // D18: a card's place in its stage is its rank by (position, id). Adding a card needs no lock:
    // it takes max(position) + 1 of the stage (two concurrent adds may tie; the id orders them).
    // Reordering locks the board and renumbers the stage. The latest buy-box verdict is kept on
    // the card so the board reads one row per card.
    `create table pipeline.items (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null,
      property_id uuid not null unique references pipeline.properties (id),
      stage text not null default 'new'
        check (stage in ('new', 'researching', 'contacted', 'negotiating', 'under_contract', 'closed', 'archived')),
      position integer not null,
      -- The stage's place in board order (D18), so the board is read in index order, unsorted.
      stage_rank smallint not null generated always as (
        case stage when 'new' then 0 when 'researching' then 1 when 'contacted' then 2 when 'negotiating' then 3
                   when 'under_contract' then 4 when 'closed' then 5 else 6 end
      ) stored,
      notes text,
      buy_box text,
      verdict text,
      score double precision,
      -- The card's JSON without its rank and job status (see render_card).
      card text not null default '',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`,
    'create index items_board on pipeline.items (tenant_id, stage_rank, position, id)',
    // The board of a tenant with thousands of cards is read far more often than a card changes:
    // each card's JSON is rendered when the card is written, and a read only concatenates them
    // with the parts that change elsewhere (rank in the stage, the diligence job's status). The
    // trigger fires only for the columns the card shows — not for the position shifts of a move.
    // row_to_json writes compact JSON (json_build_object pads every key with spaces): a board of
    // thousands of cards is that much smaller on every read.
    `create function pipeline.render_card() returns trigger language plpgsql as $$
    begin
      new.card := (
        select row_to_json(card)::text
        from (
          select new.id as id, new.property_id as property_id, new.stage as stage,
                 new.stage = 'archived' as archived, new.notes as notes,
                 to_char(new.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as created_at,
                 to_char(new.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as updated_at,
                 (select row_to_json(property) from (
                    select p.id, p.market, p.parcel_key, p.apn, p.address, p.lat, p.lon, p.acres,
                           new.buy_box as buy_box, new.verdict as verdict, new.score as score
                  ) property) as property
          from pipeline.properties p where p.id = new.property_id
        ) card
      );
      return new;
    end $$`,
    `create trigger items_render_card before insert or update of stage, notes, buy_box, verdict, score, updated_at
      on pipeline.items for each row execute function pipeline.render_card()`,
    `create table pipeline.buy_box_matches (
      id uuid primary key default gen_random_uuid(),
      tenant_id uuid not null,
      property_id uuid not null references pipeline.properties (id),
      buy_box_id uuid not null,
      buy_box text not null,
      spec_hash text not null,
      query_hash text not null,
      vintage_id uuid not null,
      source text not null check (source in ('ranked', 'direct')),
      verdict text not null check (verdict in ('PURSUE', 'MONITOR', 'HOLD')),
      score double precision not null,
      eligible boolean not null,
      -- The deep screen: the applied spec, the DiscoveryResult and the failed evidence.
      applied_spec jsonb not null,
      evaluation jsonb not null,
      failed jsonb not null,
      created_at timestamptz not null default now(),
      unique (property_id, spec_hash)
    )`,
  )(db);

export const down = (db: Kysely<any>) =>
  statements(
    'drop table pipeline.buy_box_matches',
    'drop table pipeline.items',
    'drop function pipeline.render_card',
    'drop table pipeline.properties',
  )(db);
