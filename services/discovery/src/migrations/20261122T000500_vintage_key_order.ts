import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// A vintage's rows in ascending parcel_key order are stored with its ranking index, so a service
// that loads the index reads the order instead of sorting a million keys again (~1.4 s).
export const up = (db: Kysely<any>) =>
  statements(
    'alter table discovery.vintage_columns drop constraint vintage_columns_kind_check',
    `alter table discovery.vintage_columns add constraint vintage_columns_kind_check
       check (kind in ('keys', 'key_order', 'number', 'coded', 'mixed'))`,
  )(db);

export const down = (db: Kysely<any>) =>
  statements(
    `delete from discovery.vintage_columns where kind = 'key_order'`,
    'alter table discovery.vintage_columns drop constraint vintage_columns_kind_check',
    `alter table discovery.vintage_columns add constraint vintage_columns_kind_check check (kind in ('keys', 'number', 'coded', 'mixed'))`,
  )(db);
