import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// Migrations are typed against Kysely<unknown>-like `any`, never against the live schema type.
export const up = (db: Kysely<any>) =>
  statements(
    'create schema if not exists auth',
    `comment on schema auth is 'Owned by the auth service; no other service writes here.'`,
  )(db);

export const down = (db: Kysely<any>) => statements('drop schema if exists auth cascade')(db);
