import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// A prepare spread over worker processes: the job names the vintage being written (status
// 'loading', not current), its base and the fields; each chunk of the base is written by one
// worker in one transaction that also inserts the chunk's done row, so a chunk redelivered after
// its worker died (or a duplicate delivery) finds the row and writes nothing twice. The vintage
// becomes current once every chunk has its row; then the job and its rows are deleted. Every
// chunk screens against the same layer versions: the first chunk's, stored on the job.
export const up = (db: Kysely<any>) =>
  statements(
    `create table discovery.prepare_jobs (
      vintage_id uuid primary key references discovery.vintages (id) on delete cascade,
      base_vintage_id uuid not null references discovery.vintages (id) on delete cascade,
      market_id uuid not null references discovery.markets (id) on delete cascade,
      fields text[] not null,
      chunks integer not null check (chunks > 0),
      provenance_decision jsonb,
      layer_versions text[],
      error text,
      created_at timestamptz not null default now()
    )`,
    `create table discovery.prepare_chunks_done (
      vintage_id uuid not null references discovery.prepare_jobs (vintage_id) on delete cascade,
      chunk integer not null,
      parcels integer not null,
      free_fact_fields text[] not null,
      derived_fields text[] not null,
      worker text not null,
      done_at timestamptz not null default now(),
      primary key (vintage_id, chunk)
    )`,
  )(db);

export const down = (db: Kysely<any>) => statements('drop table discovery.prepare_chunks_done', 'drop table discovery.prepare_jobs')(db);
