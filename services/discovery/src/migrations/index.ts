import type { MigrationSet } from '@landscreen/db';
import * as createSchema from './20261122T000000_create_schema.js';
import * as marketsParcelsBuyBoxes from './20261122T000100_markets_parcels_buyboxes.js';
import * as cursorKey from './20261122T000200_cursor_key.js';
import * as vintageColumns from './20261122T000300_vintage_columns.js';
import * as vintageColumnsLz4 from './20261122T000400_vintage_columns_lz4.js';
import * as vintageKeyOrder from './20261122T000500_vintage_key_order.js';
import * as vintageFieldProvenance from './20261123T120000_vintage_field_provenance.js';
import * as vintageParcelShapes from './20261128T000100_vintage_parcel_shapes.js';
import * as vintageColumnChunks from './20261128T130000_vintage_column_chunks.js';
import * as replicaPlacement from './20261201T000000_replica_placement.js';
import * as prepareJobs from './20261202T150000_prepare_jobs.js';
import * as vintageColumnSlots from './20261202T230000_vintage_column_slots.js';

/** Every migration of the "discovery" schema, in order. New migrations are appended here. */
export const migrations: MigrationSet = {
  '20261122T000000_create_schema': createSchema,
  '20261122T000100_markets_parcels_buyboxes': marketsParcelsBuyBoxes,
  '20261122T000200_cursor_key': cursorKey,
  '20261122T000300_vintage_columns': vintageColumns,
  '20261122T000400_vintage_columns_lz4': vintageColumnsLz4,
  '20261122T000500_vintage_key_order': vintageKeyOrder,
  '20261123T120000_vintage_field_provenance': vintageFieldProvenance,
  '20261128T000100_vintage_parcel_shapes': vintageParcelShapes,
  '20261128T130000_vintage_column_chunks': vintageColumnChunks,
  '20261201T000000_replica_placement': replicaPlacement,
  '20261202T150000_prepare_jobs': prepareJobs,
  '20261202T230000_vintage_column_slots': vintageColumnSlots,
};
