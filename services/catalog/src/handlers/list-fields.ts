import type { catalogv1 } from '@landscreen/proto';
import { catalogPageMessage } from '../messages/catalog-page.js';

const unfiltered = catalogPageMessage({});

/** D33: the catalog page, filtered by layer, preset and exact name. Static data: no database. */
export async function listFields(request: catalogv1.ListFieldsRequest): Promise<catalogv1.ListFieldsResponse> {
  if (request.layer === undefined && request.preset === undefined && request.name === undefined) return unfiltered;
  return catalogPageMessage({ layer: request.layer, preset: request.preset, name: request.name });
}
