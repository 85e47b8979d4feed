// A stored layer version back into a point-engine index. Chunks are read a page at a time, so
// the rows in flight stay small next to the index they build.

import { sql } from 'kysely';
import type { SourceId } from '@landscreen/field-catalog';
import { createGridLocator, type LayerGrid } from '@landscreen/layer-io';
import { buildGridLayer, buildVectorLayer, type FeatureInput, type GridLayerIndex, type LayerIndex } from '@landscreen/point-engine';
import { decodeCellsInto, decodeFeatures } from './chunk-codec.js';
import type { CatalogDb } from '../schema.js';
import type { LayerVersionRow, StoredGridMeta } from './versions.js';

const CHUNKS_PER_PAGE = 16;

export async function loadLayerIndex(db: CatalogDb, version: LayerVersionRow): Promise<LayerIndex> {
  const source = version.source as SourceId;
  if (version.grid !== null) {
    const meta = version.grid;
    // On a SharedArrayBuffer: prepare's engine workers share the cells rather than copy them (layer-snapshot.ts).
    const values = new Float32Array(new SharedArrayBuffer(meta.width * meta.height * 4));
    let offset = 0;
    await forEachChunk(db, version.id, (data) => (offset = decodeCellsInto(values, offset, data)));
    return gridLayerIndex({ source, version: version.id, meta, bbox: version.bbox, values });
  }
  const features: FeatureInput[] = [];
  await forEachChunk(db, version.id, (data) => {
    for (const feature of decodeFeatures(data)) features.push(feature);
  });
  return buildVectorLayer(source, version.id, features);
}

/** What a grid layer index is made of (its cells and stored metadata), as layer snapshots carry it. */
export interface GridLayerParts {
  source: SourceId;
  version: string;
  meta: StoredGridMeta;
  bbox: [number, number, number, number] | null;
  values: Float32Array;
}

const gridParts = new WeakMap<GridLayerIndex, GridLayerParts>();

/** The parts a grid index was made of (undefined for one not made by gridLayerIndex). */
export function gridPartsOf(index: GridLayerIndex): GridLayerParts | undefined {
  return gridParts.get(index);
}

/** A grid layer index from its cells and stored metadata (a grid off EPSG:4326 is located through its CRS). */
export function gridLayerIndex(parts: GridLayerParts): GridLayerIndex {
  const { meta, values } = parts;
  const grid: LayerGrid = { ...meta, values, bbox: parts.bbox ?? [-180, -90, 180, 90] };
  const locator = createGridLocator(grid);
  const native = meta.crs.definition === 'EPSG:4326' || meta.crs.definition === 'OGC:CRS84';
  const index = buildGridLayer(parts.source, parts.version, {
    width: meta.width,
    height: meta.height,
    geotransform: meta.geoTransform,
    noData: meta.noData,
    values,
    project: native ? undefined : (lon, lat) => locator.toNative(lon, lat),
    cellSizeM: native ? undefined : (col, row) => locator.cellSizeMetres(col, row),
  });
  gridParts.set(index, parts);
  return index;
}

async function forEachChunk(db: CatalogDb, versionId: string, take: (data: Uint8Array) => void): Promise<void> {
  for (let from = 0; ; from += CHUNKS_PER_PAGE) {
    const { rows } = await sql<{ data: Uint8Array }>`
      select data from catalog.layer_chunks
      where version_id = ${versionId} and chunk_no >= ${from} and chunk_no < ${from + CHUNKS_PER_PAGE}
      order by chunk_no`.execute(db);
    for (const row of rows) take(row.data);
    if (rows.length < CHUNKS_PER_PAGE) return;
  }
}
