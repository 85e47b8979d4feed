import type { MessageInitShape } from '@bufbuild/protobuf';
import type { catalogv1 } from '@landscreen/proto';
import { versionSize } from './version-sizes.js';
import type { LayerVersionRow } from './versions.js';

export type LayerVersionInit = MessageInitShape<typeof catalogv1.LayerVersionSchema>;

export function layerVersionMessage(row: LayerVersionRow, current: boolean, storedBytes: ReadonlyMap<string, number> = new Map()): LayerVersionInit {
  const size = versionSize(row, storedBytes);
  return {
    id: row.id,
    source: row.source,
    name: row.name,
    format: row.format,
    fileName: row.file_name,
    crs: row.crs,
    geometry: row.geometry,
    featureCount: BigInt(row.feature_count),
    bbox: row.bbox ?? [],
    loadedAt: new Date(row.completed_at).toISOString(),
    current,
    storedBytes: BigInt(size.storedBytes),
    engineBytes: size.engineBytes === null ? undefined : BigInt(size.engineBytes),
    loadsOnDemand: size.onDemand,
    tiles: size.tiles,
  };
}

/** Every version, newest first, each marked current when it is its source's latest. */
export function layerVersionMessages(rows: readonly LayerVersionRow[], storedBytes: ReadonlyMap<string, number> = new Map()): LayerVersionInit[] {
  const seen = new Set<string>();
  return rows.map((row) => {
    const current = !seen.has(row.source);
    seen.add(row.source);
    return layerVersionMessage(row, current, storedBytes);
  });
}
