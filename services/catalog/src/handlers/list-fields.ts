import type { JsonObject } from '@bufbuild/protobuf';
import { buildCatalogPage } from '@landscreen/field-catalog';
import type { catalogv1 } from '@landscreen/proto';

/** D33: the catalog page, filtered by layer, preset and exact name. Static data: no database. */
export async function listFields(request: catalogv1.ListFieldsRequest) {
  const page = buildCatalogPage({ layer: request.layer, preset: request.preset, name: request.name });
  return { page: page as unknown as JsonObject };
}
