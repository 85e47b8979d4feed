import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// Layer versions of the point-data sources. A version row and its chunks are written
// in the import's one transaction and never changed after: a failed import leaves no row, so a
// version that exists is complete, and the current version of a source is simply its latest
// (highest `seq`, drawn as the import's last statement). Chunks hold a few thousand features as
// JSON (or a slice of a grid's float32 cells): TOAST compresses them (lz4 where the server has it).
export const up = (db: Kysely<any>) =>
  statements(
    'create sequence catalog.layer_version_seq',
    `create table catalog.layer_versions (
      id uuid primary key default gen_random_uuid(),
      seq bigint not null unique,
      source text not null,
      name text not null,
      format text not null check (format in ('geojson', 'ndjson', 'csv', 'shapefile', 'geotiff')),
      file_name text not null,
      crs text not null,
      geometry text not null check (geometry in ('points', 'lines', 'polygons', 'mixed', 'grid')),
      feature_count bigint not null,
      bbox jsonb,
      grid jsonb,
      created_at timestamptz not null default now(),
      completed_at timestamptz not null default clock_timestamp()
    )`,
    // The per-request "which versions are current" query reads this index only.
    'create index layer_versions_current on catalog.layer_versions (source, seq desc) include (id)',
    `create table catalog.layer_chunks (
      version_id uuid not null references catalog.layer_versions (id) on delete cascade,
      chunk_no integer not null,
      data bytea not null,
      primary key (version_id, chunk_no)
    )`,
    `do $$ begin
       alter table catalog.layer_chunks alter column data set compression lz4;
     exception when feature_not_supported then null;
     end $$`,
  )(db);

export const down = (db: Kysely<any>) =>
  statements('drop table catalog.layer_chunks', 'drop table catalog.layer_versions', 'drop sequence catalog.layer_version_seq')(db);
