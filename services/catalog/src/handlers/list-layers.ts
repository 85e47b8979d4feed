import { layerVersionMessages } from '../layers/version-message.js';
import { storedBytesByVersion } from '../layers/version-sizes.js';
import { listVersions } from '../layers/versions.js';
import type { CatalogImpl } from '../connect.js';
import type { CatalogDb } from '../schema.js';

/** Every stored layer version, newest first, saying which are current and what each takes. */
export function listLayers(db: CatalogDb): CatalogImpl['listLayers'] {
  return async () => {
    const [versions, storedBytes] = await Promise.all([listVersions(db), storedBytesByVersion(db)]);
    return { layers: layerVersionMessages(versions, storedBytes) };
  };
}
