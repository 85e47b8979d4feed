// The table a vintage's parcels are written into: its own, with no index, attached to
// discovery.parcels as a partition once every row is in — building the indexes once, in bulk, is
// far cheaper than maintaining them per row. Every statement here is SQL text: the builder has no
// word for DDL (create table … like, attach partition, drop table), and the table's name is made
// from the vintage's id, so it is not one of the schema's types either.

import { sql } from 'kysely';
import type { DiscoveryTransaction } from '../schema.js';

export const vintageTable = (vintageId: string) => `discovery.parcels_${vintageId.replaceAll('-', '')}`;

/**
 * Creates the vintage's table. Its check constraint, matching the partition bound, spares the
 * attach a scan of every row.
 */
export async function createVintageTable(trx: DiscoveryTransaction, vintageId: string): Promise<string> {
  const table = vintageTable(vintageId);
  await sql
    .raw(
      `create table ${table} (like discovery.parcels including defaults, constraint vintage_only check (vintage_id = '${vintageId}'))
       with (toast_tuple_target = 8160)`,
    )
    .execute(trx);
  return table;
}

/** Makes the vintage's rows part of discovery.parcels (building the partition's indexes). */
export async function attachVintageTable(trx: DiscoveryTransaction, vintageId: string): Promise<void> {
  await sql.raw(`alter table discovery.parcels attach partition ${vintageTable(vintageId)} for values in ('${vintageId}')`).execute(trx);
}

/** Drops the table of a vintage that was never attached (an abandoned prepare). */
export async function dropVintageTable(trx: DiscoveryTransaction, vintageId: string): Promise<void> {
  await sql.raw(`drop table if exists ${vintageTable(vintageId)}`).execute(trx);
}
