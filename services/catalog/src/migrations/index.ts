import type { MigrationSet } from '@landscreen/db';
import * as createSchema from './20261122T000000_create_schema.js';
import * as layerVersions from './20261123T000000_layer_versions.js';
import * as billing from './20261123T100000_billing.js';
import * as runs from './20261123T110000_runs.js';
import * as typedReplays from './20261123T200000_typed_replays.js';
import * as layerFormats from './20261126T000000_layer_formats.js';
import * as runTraceparent from './20261128T000000_run_traceparent.js';

/** Every migration of the "catalog" schema, in order. New migrations are appended here. */
export const migrations: MigrationSet = {
  '20261122T000000_create_schema': createSchema,
  '20261123T000000_layer_versions': layerVersions,
  '20261123T100000_billing': billing,
  '20261123T110000_runs': runs,
  '20261123T200000_typed_replays': typedReplays,
  '20261126T000000_layer_formats': layerFormats,
  '20261128T000000_run_traceparent': runTraceparent,
};
