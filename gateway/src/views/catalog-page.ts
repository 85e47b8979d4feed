import { buildCatalogPage, type CatalogFilters } from '@landscreen/field-catalog';

/** The unfiltered page, written once: the field catalog is static (D33). */
let unfiltered: Uint8Array | undefined;

/**
 * D33: the catalog page {"billing": {...}, "fields": [field record]} for the filters, as JSON
 * bytes. The field catalog's page (typed there, @landscreen/field-catalog's CatalogPage) is the
 * spec's catalog page key for key, so it is written as it is (docs/decisions.md, "One views layer for the REST JSON").
 */
export function catalogPageJson(filters: CatalogFilters): Uint8Array {
  const all = filters.layer === undefined && filters.preset === undefined && filters.name === undefined;
  if (all && unfiltered) return unfiltered;
  const json = Buffer.from(JSON.stringify(buildCatalogPage(filters)));
  if (all) unfiltered = json;
  return json;
}
