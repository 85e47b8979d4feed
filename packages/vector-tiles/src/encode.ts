import { fromGeojsonVt } from '@maplibre/vt-pbf';
import { EXTENT } from './tile-address.js';
import type { TileGeometry } from './tile-geometry.js';

export type TileValue = string | number | boolean;

export interface TileFeature {
  /** Unsigned integer id (the feature's position in its source), when it has one. */
  id?: number;
  geometry: TileGeometry;
  properties: Record<string, TileValue>;
}

export interface TileLayer {
  name: string;
  features: readonly TileFeature[];
}

/** geojson-vt's tile feature: what vt-pbf serialises (points as one list, lines and rings as lists of [x, y]). */
function asGeojsonVtFeature(feature: TileFeature) {
  const { type, paths } = feature.geometry;
  const pairs = paths.map((flat) => {
    const out: [number, number][] = new Array(flat.length / 2);
    for (let i = 0; i < flat.length; i += 2) out[i / 2] = [flat[i], flat[i + 1]];
    return out;
  });
  return {
    type,
    geometry: type === 1 ? pairs[0] : pairs,
    tags: feature.properties,
    ...(feature.id !== undefined && { id: feature.id }),
  };
}

/**
 * A Mapbox Vector Tile (specification 2.1) of the layers, serialised by vt-pbf (the maintained
 * MapLibre fork), the serialiser geojson-vt's tiles are written with.
 */
export function encodeTile(layers: readonly TileLayer[], extent = EXTENT): Uint8Array {
  const tiles: Record<string, { features: ReturnType<typeof asGeojsonVtFeature>[] }> = {};
  for (const layer of layers) tiles[layer.name] = { features: layer.features.map(asGeojsonVtFeature) };
  // The library's declared input type is geojson-vt's own tile type; the shape above is what it reads.
  return fromGeojsonVt(tiles as never, { version: 2, extent });
}
