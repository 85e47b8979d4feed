import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// A vintage's parcel geometry index (the polygons packed as the point engine packs them, the keys
// and the record fields LocateParcels answers) as one binary blob in parts, written by the import
// (services/discovery/src/locate/parcel-index-store.ts): read back in seconds, where rebuilding it
// from a million parcels' JSON geometry took minutes. Parts keep each value far below bytea's 1 GB.
export const up = (db: Kysely<any>) =>
  statements(
    `create table discovery.vintage_parcel_shapes (
      vintage_id uuid not null references discovery.vintages (id) on delete cascade,
      part integer not null,
      data bytea not null,
      primary key (vintage_id, part)
    )`,
    `do $$ begin
       alter table discovery.vintage_parcel_shapes alter column data set compression lz4;
     exception when feature_not_supported then null;
     end $$`,
  )(db);

export const down = (db: Kysely<any>) => statements('drop table discovery.vintage_parcel_shapes')(db);
