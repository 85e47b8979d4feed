import type { MigrationSet } from '@landscreen/db';
import * as createSchema from './20261122T000000_create_schema.js';
import * as identityAndSessions from './20261122T000100_identity_and_sessions.js';

/** Every migration of the "auth" schema, in order. New migrations are appended here. */
export const migrations: MigrationSet = {
  '20261122T000000_create_schema': createSchema,
  '20261122T000100_identity_and_sessions': identityAndSessions,
};
