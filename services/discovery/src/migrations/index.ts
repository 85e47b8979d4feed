import type { MigrationSet } from '@landscreen/db';
import * as createSchema from './20261122T000000_create_schema.js';

/** Every migration of the "discovery" schema, in order. New migrations are appended here. */
export const migrations: MigrationSet = {
  '20261122T000000_create_schema': createSchema,
};
