import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// Migrations are typed against Kysely<unknown>-like `any`, never against the live schema type.
export const up = (db: Kysely<any>) =>
  statements(
    'create schema if not exists discovery',
    `comment on schema discovery is 'Owned by the discovery service; no other service writes here.'`,
  )(db);

export const down = (db: Kysely<any>) => statements('drop schema if exists discovery cascade')(db);
