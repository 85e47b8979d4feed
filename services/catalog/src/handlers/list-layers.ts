import type { Kysely } from 'kysely';
import { layerVersionMessages } from '../layers/version-message.js';
import { listVersions } from '../layers/versions.js';

/** Every stored layer version, newest first, saying which are current. */
export function listLayers(db: Kysely<any>) {
  return async () => ({ layers: layerVersionMessages(await listVersions(db)) });
}
