import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// The board answers typed Card messages, so each stored card is parsed on every read.
// A card stored as a positional JSON array instead of an object is a third smaller to read and
// half the time to parse (no keys to hash, no nested object): on a board of 5,000 cards that is
// what kept the typed board within 10 % of the JSON-bytes one (docs/benchmarks.md). The order of
// the elements is StoredCard's in services/pipeline/src/board/items.ts; the two change together.
// Every existing card is rendered again (the trigger fires on `updated_at`, unchanged).
const renderCard = (body: string) =>
  `create or replace function pipeline.render_card() returns trigger language plpgsql as $$
    begin
      new.card := (${body});
      return new;
    end $$`;

const POSITIONAL = `
        select json_build_array(
                 new.id, new.property_id, new.stage, new.notes,
                 to_char(new.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 to_char(new.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                 p.market, p.parcel_key, p.apn, p.address, p.lat, p.lon, p.acres,
                 new.buy_box, new.verdict, new.score)::text
        from pipeline.properties p where p.id = new.property_id`;

// The object the first version of the trigger wrote (20261122T000100_properties_items_matches).
const KEYED = `
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
        ) card`;

const RENDER_AGAIN = 'update pipeline.items set updated_at = updated_at';

export const up = (db: Kysely<any>) => statements(renderCard(POSITIONAL), RENDER_AGAIN)(db);

export const down = (db: Kysely<any>) => statements(renderCard(KEYED), RENDER_AGAIN)(db);
