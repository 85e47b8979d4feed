import { Code } from '@connectrpc/connect';
import type { ExpressionBuilder } from 'kysely';
import { closestMatch } from '@landscreen/field-catalog';
import { forbidden, notFound, serviceError } from '@landscreen/rpc';
import type { DiscoveryContext } from './context.js';
import { fieldProvenanceOf } from './field-provenance.js';
import type { MarketVintage } from './market-vintage.js';

/**
 * The market a request names and its current vintage, once the caller's tenant is entitled to it
 * (D16): unknown market 404, not entitled 403 `not_entitled`, nothing loaded yet 409.
 */
export async function marketForCaller(context: DiscoveryContext, tenantId: string, slug: string): Promise<MarketVintage> {
  const row = await context.db
    .selectFrom('markets')
    .leftJoin('vintages', 'vintages.id', 'markets.current_vintage_id')
    .select([
      'markets.id as market_id',
      'markets.slug',
      'vintages.id as vintage_id',
      'vintages.free_fact_fields',
      'vintages.derived_fields',
      // The entitlement in the same round trip: every tenant request asks.
      entitledColumn(tenantId),
    ])
    .where('markets.slug', '=', slug)
    .executeTakeFirst();
  if (!row) throw notFound('market_not_found', await unknownMarketSentence(context, tenantId, slug));
  if (!row.entitled) {
    throw forbidden('not_entitled', `Your organization is not entitled to market "${slug}".`);
  }
  if (!row.vintage_id) throw serviceError(Code.FailedPrecondition, 'market_not_loaded', `Market "${slug}" has no parcels loaded yet.`);
  return {
    market: { id: row.market_id, slug: row.slug },
    vintage: {
      id: row.vintage_id,
      freeFactFields: row.free_fact_fields ?? [],
      derivedFields: row.derived_fields ?? [],
      fieldProvenance: await fieldProvenanceOf(context.db, row.vintage_id),
    },
  };
}

/**
 * `No market "travis-t"; did you mean "travis-tx"?`: the suggestion drawn only from the markets the
 * tenant is entitled to (another tenant's market names are not told), and only when one is a
 * plausible typo. Asked on the error path alone.
 */
export async function unknownMarketSentence(context: DiscoveryContext, tenantId: string, slug: string): Promise<string> {
  const entitled = await context.db
    .selectFrom('markets')
    .innerJoin('entitlements', 'entitlements.market_id', 'markets.id')
    .select('markets.slug')
    .where('entitlements.tenant_id', '=', tenantId)
    .execute();
  const suggestion = closestMatch(slug, entitled.map((market) => market.slug));
  return suggestion === null ? `No market "${slug}".` : `No market "${slug}"; did you mean "${suggestion}"?`;
}

/** `entitled`: whether the tenant may use the row's market (D16), as a column of the same query. */
export const entitledColumn =
  (tenantId: string) =>
  (eb: ExpressionBuilder<any, 'markets'>) =>
    eb
      .exists(eb.selectFrom('entitlements').select('market_id').whereRef('entitlements.market_id', '=', 'markets.id').where('entitlements.tenant_id', '=', tenantId))
      .as('entitled');
