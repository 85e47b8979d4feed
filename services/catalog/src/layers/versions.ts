// Reading layer versions back: the current one per source (its latest, by `seq`) and the list.

import { sql } from 'kysely';
import type { Crs, GeoTransform } from '@landscreen/layer-io';
import type { CatalogDb } from '../schema.js';

export interface LayerVersionRow {
  id: string;
  seq: string;
  source: string;
  name: string;
  format: string;
  file_name: string;
  crs: string;
  geometry: string;
  feature_count: string | number;
  bbox: [number, number, number, number] | null;
  grid: StoredGridMeta | null;
  completed_at: Date | string;
}

export interface StoredGridMeta {
  width: number;
  height: number;
  noData: number | null;
  crs: Crs;
  geoTransform: GeoTransform;
}

export interface CurrentVersion {
  source: string;
  id: string;
  /** bigint as text. */
  seq: string;
}

/** The current version of every source that has one: one index-only scan per source. */
export async function currentVersions(db: CatalogDb): Promise<CurrentVersion[]> {
  // Ordered by the table's bigint column: a bare `seq` would name the text alias, and '9' > '10'.
  const { rows } = await sql<CurrentVersion>`
    select distinct on (source) source, id, seq::text as seq from catalog.layer_versions order by source, layer_versions.seq desc`.execute(db);
  return rows;
}

/** Every stored version, newest first. */
export async function listVersions(db: CatalogDb): Promise<LayerVersionRow[]> {
  const { rows } = await sql<LayerVersionRow>`select * from catalog.layer_versions order by seq desc`.execute(db);
  return rows;
}

export async function versionById(db: CatalogDb, id: string): Promise<LayerVersionRow | undefined> {
  const { rows } = await sql<LayerVersionRow>`select * from catalog.layer_versions where id = ${id}`.execute(db);
  return rows[0];
}

/** The current version row of every source that has one. */
export async function currentVersionRows(db: CatalogDb): Promise<LayerVersionRow[]> {
  const { rows } = await sql<LayerVersionRow>`
    select distinct on (source) * from catalog.layer_versions order by source, seq desc`.execute(db);
  return rows;
}
