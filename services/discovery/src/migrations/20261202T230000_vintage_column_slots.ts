import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// A ranking index's columns in their narrower forms (ranking/column-store.ts): `slots`, a coded
// column's slots in one, two or four bytes a row (number columns of few distinct values included),
// and `float64`, a number column that was not coded. Rows of the earlier kinds stay readable.
export const up = (db: Kysely<any>) =>
  statements(
    'alter table discovery.vintage_columns drop constraint vintage_columns_kind_check',
    `alter table discovery.vintage_columns add constraint vintage_columns_kind_check
       check (kind in ('keys', 'key_order', 'number', 'coded', 'mixed', 'float64', 'slots'))`,
  )(db);

// Float64 rows are the earlier `number` rows byte for byte; slots have no earlier form that SQL
// can write, so going back refuses while any vintage holds them (prepare it again after).
export const down = (db: Kysely<any>) =>
  statements(
    `do $$ begin
       if exists (select 1 from discovery.vintage_columns where kind = 'slots') then
         raise exception 'vintage_columns holds slots columns, which the earlier code cannot read';
       end if;
     end $$`,
    `update discovery.vintage_columns set kind = 'number' where kind = 'float64'`,
    'alter table discovery.vintage_columns drop constraint vintage_columns_kind_check',
    `alter table discovery.vintage_columns add constraint vintage_columns_kind_check
       check (kind in ('keys', 'key_order', 'number', 'coded', 'mixed'))`,
  )(db);
