// A derived vintage (prepare) has its base's parcels with the same shapes, keys and record
// fields, so its parcel index is the base's, bytes and all, but for the vintage its header names.
// A UUID's text is always 36 bytes: the copy overwrites it in place, and every section's offset
// stays true — no process holds the whole market's polygons to write it.

import type { ExpressionBuilder } from 'kysely';
import type { DiscoveryDatabase, DiscoveryTransaction } from '../schema.js';

/** Where the header's vintage id lies (1-based, as SQL counts): after the 16-byte prefix and `{"vintageId":"`. */
const HEADER_START = '{"vintageId":"';
const ID_AT = 16 + HEADER_START.length + 1;

/** Copies `base`'s stored parcel index to `vintage`; false when the base has none of this layout (it is built when first needed). */
export async function copyParcelIndex(trx: DiscoveryTransaction, base: string, vintage: string): Promise<boolean> {
  const first = await trx
    .selectFrom('vintage_parcel_shapes')
    .select((eb) =>
      eb
        .and([
          eb(eb.fn('substring', ['data', eb.lit(17), eb.val(HEADER_START.length)]), '=', utf8(eb, HEADER_START)),
          eb(eb.fn('substring', ['data', eb.lit(ID_AT), eb.lit(36)]), '=', utf8(eb, base)),
        ])
        .as('laid_out'),
    )
    .where('vintage_id', '=', base)
    .where('part', '=', 0)
    .executeTakeFirst();
  if (!first?.laid_out) return false;
  await trx
    .insertInto('vintage_parcel_shapes')
    .columns(['vintage_id', 'part', 'data'])
    .expression((eb) =>
      eb
        .selectFrom('vintage_parcel_shapes')
        .select((eb) => [
          eb.val(vintage).as('vintage_id'),
          'part',
          eb
            .case()
            .when('part', '=', 0)
            .then(eb.fn<Uint8Array>('overlay', ['data', utf8(eb, vintage), eb.lit(ID_AT), eb.lit(36)]))
            .else(eb.ref('data'))
            .end()
            .as('data'),
        ])
        .where('vintage_id', '=', base),
    )
    .onConflict((oc) => oc.columns(['vintage_id', 'part']).doNothing())
    .execute();
  return true;
}

/** The bytes of `text` in UTF-8, as the header stores them. */
const utf8 = (eb: ExpressionBuilder<DiscoveryDatabase, 'vintage_parcel_shapes'>, text: string) => eb.fn<Uint8Array>('convert_to', [eb.val(text), eb.val('UTF8')]);
