// A derived vintage (prepare) has its base's parcels with the same shapes, keys and record
// fields, so its parcel index is the base's, bytes and all, but for the vintage its header names.
// A UUID's text is always 36 bytes: the copy overwrites it in place, and every section's offset
// stays true — no process holds the whole market's polygons to write it.

import { sql } from 'kysely';
import type { DiscoveryTransaction } from '../schema.js';

/** Where the header's vintage id lies (1-based, as SQL counts): after the 16-byte prefix and `{"vintageId":"`. */
const HEADER_START = '{"vintageId":"';
const ID_AT = 16 + HEADER_START.length + 1;

/** Copies `base`'s stored parcel index to `vintage`; false when the base has none of this layout (it is built when first needed). */
export async function copyParcelIndex(trx: DiscoveryTransaction, base: string, vintage: string): Promise<boolean> {
  const { rows } = await sql<{ laid_out: boolean }>`
    select substring(data from 17 for ${HEADER_START.length}) = convert_to(${HEADER_START}, 'UTF8')
           and substring(data from ${ID_AT} for 36) = convert_to(${base}, 'UTF8') as laid_out
    from discovery.vintage_parcel_shapes where vintage_id = ${base} and part = 0`.execute(trx);
  if (!rows[0]?.laid_out) return false;
  await sql`
    insert into discovery.vintage_parcel_shapes (vintage_id, part, data)
    select ${vintage}, part, case when part = 0 then overlay(data placing convert_to(${vintage}, 'UTF8') from ${ID_AT} for 36) else data end
    from discovery.vintage_parcel_shapes where vintage_id = ${base}
    on conflict (vintage_id, part) do nothing`.execute(trx);
  return true;
}
