import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// The ranking index of a vintage, by column, written by the import in the same transaction as the
// parcels (services/discovery/src/ranking/column-store.ts).
export const up = (db: Kysely<any>) =>
  statements(
    `create table discovery.vintage_columns (
      vintage_id uuid not null references discovery.vintages (id) on delete cascade,
      field text not null,
      kind text not null check (kind in ('keys', 'number', 'coded', 'mixed')),
      data bytea not null,
      dictionary jsonb,
      primary key (vintage_id, field)
    )`,
  )(db);

export const down = (db: Kysely<any>) => statements('drop table discovery.vintage_columns')(db);
