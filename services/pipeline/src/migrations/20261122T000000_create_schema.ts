import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// Migrations are typed against Kysely<unknown>-like `any`, never against the live schema type.
export const up = (db: Kysely<any>) =>
  statements(
    'create schema if not exists pipeline',
    `comment on schema pipeline is 'Owned by the pipeline service; no other service writes here.'`,
  )(db);

export const down = (db: Kysely<any>) => statements('drop schema if exists pipeline cascade')(db);
