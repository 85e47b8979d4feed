import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { DiscoveryDatabase } from './schema.js';

// Fuzzy address matching with pg_trgm, on the parcels' trigram index of `address_normalised`
// (PostgreSQL and PGlite both load the extension, so both run the same SQL).

type ParcelsBuilder = ExpressionBuilder<DiscoveryDatabase, 'parcels'>;

/**
 * `address_normalised % address`: pg_trgm's similarity operator, the one its index answers. The
 * builder knows `%` only as arithmetic, so the result is declared a condition here, once.
 */
export const similarAddress = (eb: ParcelsBuilder, address: string): Expression<SqlBool> =>
  eb('address_normalised', '%', address).$castTo<SqlBool>();

/** `similarity(address_normalised, address)`: pg_trgm's score in [0, 1], to order matches by. */
export const addressSimilarity = (eb: ParcelsBuilder, address: string) => eb.fn<number>('similarity', ['address_normalised', eb.val(address)]);
