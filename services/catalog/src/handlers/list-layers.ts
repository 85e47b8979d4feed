import { layerVersionMessages } from '../layers/version-message.js';
import { listVersions } from '../layers/versions.js';
import type { CatalogImpl } from '../connect.js';
import type { CatalogDb } from '../schema.js';

/** Every stored layer version, newest first, saying which are current. */
export function listLayers(db: CatalogDb): CatalogImpl['listLayers'] {
  return async () => ({ layers: layerVersionMessages(await listVersions(db)) });
}
