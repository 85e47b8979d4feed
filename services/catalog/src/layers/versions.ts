// Reading layer versions back: the current one per source (its latest, by `seq`) and the list.

import type { Selectable } from 'kysely';
import type { CatalogDb, LayerVersionsTable } from '../schema.js';

/** A version row as stored: `bbox` and `grid` are its jsonb values, parsed. */
export type LayerVersionRow = Selectable<LayerVersionsTable>;

export interface CurrentVersion {
  source: string;
  id: string;
  /** bigint as text. */
  seq: string;
}

/** The current version of every source that has one: one index-only scan per source. */
export async function currentVersions(db: CatalogDb): Promise<CurrentVersion[]> {
  // Ordered by the table's bigint column: a bare `seq` would name the text alias, and '9' > '10'.
  return db
    .selectFrom('layer_versions')
    .distinctOn('source')
    .select((eb) => ['source', 'id', eb.cast<string>('seq', 'text').as('seq')])
    .orderBy('source')
    .orderBy('layer_versions.seq', 'desc')
    .execute();
}

/** Every stored version, newest first. */
export async function listVersions(db: CatalogDb): Promise<LayerVersionRow[]> {
  return db.selectFrom('layer_versions').selectAll().orderBy('seq', 'desc').execute();
}

export async function versionById(db: CatalogDb, id: string): Promise<LayerVersionRow | undefined> {
  return db.selectFrom('layer_versions').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The current version row of every source that has one. */
export async function currentVersionRows(db: CatalogDb): Promise<LayerVersionRow[]> {
  return db.selectFrom('layer_versions').distinctOn('source').selectAll().orderBy('source').orderBy('seq', 'desc').execute();
}
