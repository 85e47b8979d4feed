import { isCatalogField } from '@landscreen/field-catalog';
import { TYPED_FACT_FIELDS } from '@landscreen/parcel-io';
import type { DiscoveryDb } from './schema.js';

/** D13: the typed facts every market has (as the importer maps them). */
export const TYPED_FIELDS: readonly string[] = TYPED_FACT_FIELDS;

/**
 * D10: the fields a rule may name — the catalog's, the typed ones, and the free and derived
 * facts the market's current vintage carries.
 */
export async function knownFieldsOf(db: DiscoveryDb, marketSlug: string | undefined): Promise<(field: string) => boolean> {
  const extra = new Set<string>();
  if (marketSlug) {
    const vintage = await db
      .selectFrom('markets')
      .innerJoin('vintages', 'vintages.id', 'markets.current_vintage_id')
      .select(['vintages.free_fact_fields', 'vintages.derived_fields'])
      .where('markets.slug', '=', marketSlug)
      .executeTakeFirst();
    for (const field of [...(vintage?.free_fact_fields ?? []), ...(vintage?.derived_fields ?? [])]) extra.add(field);
  }
  return (field) => isCatalogField(field) || TYPED_FIELDS.includes(field) || extra.has(field);
}
