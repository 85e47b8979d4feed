// The shape check every binary reader applies to a geometry in the file's CRS (rings closed,
// enough positions); the range check waits until the pipeline has reprojected it.

import { GeometryError, validateGeometry, type GeoJSONGeometry } from '@landscreen/parcel-io';
import { LayerReadError } from '../errors.js';
import type { FeaturePosition } from '../types.js';

export function checkedGeometry(path: string, geometry: unknown, position: FeaturePosition): GeoJSONGeometry | null {
  if (geometry === null || geometry === undefined) return null;
  try {
    return validateGeometry(geometry, { lonLatRanges: false });
  } catch (error) {
    if (error instanceof GeometryError) throw new LayerReadError(path, `geometry: ${error.message}`, position);
    throw error;
  }
}

/** A layer's name list for messages: "a", "b" and "c". */
export function layerList(names: readonly string[]): string {
  return names.map((name) => JSON.stringify(name)).join(', ');
}

/**
 * The layer `wanted` names among a file's layers (exact, then case-insensitive), or its only one;
 * refused with the list when it is missing or when several exist and none was named.
 */
export function pickLayer(path: string, layers: readonly string[], wanted: string | undefined): string {
  if (layers.length === 0) throw new LayerReadError(path, 'holds no vector layer');
  if (wanted === undefined) {
    if (layers.length === 1) return layers[0];
    throw new LayerReadError(path, `holds ${layers.length} layers: choose one with --layer NAME (${layerList(layers)})`);
  }
  const found = layers.find((name) => name === wanted) ?? layers.find((name) => name.toLowerCase() === wanted.toLowerCase());
  if (found === undefined) throw new LayerReadError(path, `has no layer ${JSON.stringify(wanted)}; its layers are ${layerList(layers)}`);
  return found;
}
