import { forbidden, isUuid, notFound } from '@landscreen/rpc';
import type { DiscoveryContext } from './context.js';
import { fieldProvenanceOf } from './field-provenance.js';
import { entitledColumn } from './market-access.js';
import type { MarketVintage } from './market-vintage.js';

/**
 * A vintage a request names, current or not, once the caller's tenant is entitled to its market
 * (D16): an unknown (or not yet complete) vintage 404, not entitled 403 `not_entitled`.
 */
export async function vintageForCaller(context: DiscoveryContext, tenantId: string, vintageId: string): Promise<MarketVintage> {
  const row = await context.db
    .selectFrom('vintages')
    .innerJoin('markets', 'markets.id', 'vintages.market_id')
    .select([
      'markets.id as market_id',
      'markets.slug',
      'vintages.id as vintage_id',
      'vintages.free_fact_fields',
      'vintages.derived_fields',
      entitledColumn(tenantId),
    ])
    // Vintage ids are uuids: anything else names no vintage rather than failing the cast.
    .where('vintages.id', '=', isUuid(vintageId) ? vintageId : '00000000-0000-0000-0000-000000000000')
    .where('vintages.status', '=', 'ready')
    .executeTakeFirst();
  if (!row) throw notFound('vintage_not_found', `No vintage "${vintageId}".`);
  if (!row.entitled) throw forbidden('not_entitled', `Your organization is not entitled to market "${row.slug}".`);
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

