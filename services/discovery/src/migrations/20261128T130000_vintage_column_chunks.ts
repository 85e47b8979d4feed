import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// A vintage's ranking index is stored in chunks of rows (column-store.ts), so an import or a
// prepare writes each chunk as it goes and a prepare reads its base one chunk at a time: neither
// holds a whole market's columns. Vintages stored before are one chunk, 0.
export const up = (db: Kysely<any>) =>
  statements(
    'alter table discovery.vintage_columns add column chunk integer not null default 0',
    'alter table discovery.vintage_columns drop constraint vintage_columns_pkey',
    'alter table discovery.vintage_columns add primary key (vintage_id, field, chunk)',
  )(db);

export const down = (db: Kysely<any>) =>
  statements(
    'delete from discovery.vintage_columns where chunk <> 0',
    'alter table discovery.vintage_columns drop constraint vintage_columns_pkey',
    'alter table discovery.vintage_columns add primary key (vintage_id, field)',
    'alter table discovery.vintage_columns drop column chunk',
  )(db);
