import { buildCatalogPage } from '@landscreen/field-catalog';
import type { catalogv1 } from '@landscreen/proto';
import { jsonBytes } from '@landscreen/rpc';

const unfiltered = jsonBytes(buildCatalogPage({}));

/** D33: the catalog page, filtered by layer, preset and exact name. Static data: no database. */
export async function listFields(request: catalogv1.ListFieldsRequest) {
  if (request.layer === undefined && request.preset === undefined && request.name === undefined) {
    return { pageJson: unfiltered };
  }
  return { pageJson: jsonBytes(buildCatalogPage({ layer: request.layer, preset: request.preset, name: request.name })) };
}
