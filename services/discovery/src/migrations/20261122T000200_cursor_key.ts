import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// D15: cursors are signed. The key lives with the data so that every replica signs alike and
// cursors survive restarts; it is made once, at random, by the database itself.
export const up = (db: Kysely<any>) =>
  statements(
    `create table discovery.signing_keys (
      name text primary key,
      secret bytea not null
    )`,
    `insert into discovery.signing_keys (name, secret)
      values ('cursor', decode(md5(random()::text || clock_timestamp()::text) || md5(random()::text || clock_timestamp()::text), 'hex'))`,
  )(db);

export const down = (db: Kysely<any>) => statements('drop table discovery.signing_keys')(db);
