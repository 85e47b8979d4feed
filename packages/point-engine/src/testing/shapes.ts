// Small geometry builders for the engine's tests: hand-checkable shapes in lon/lat degrees.

import type { FeatureInput } from '../vector-index.js';
import type { Geometry } from '../geometry.js';

export type Box = readonly [number, number, number, number];

/** A closed ring around [minLon, minLat, maxLon, maxLat], counter-clockwise. */
export function ring([minLon, minLat, maxLon, maxLat]: Box): number[][] {
  return [
    [minLon, minLat],
    [maxLon, minLat],
    [maxLon, maxLat],
    [minLon, maxLat],
    [minLon, minLat],
  ];
}

export function boxPolygon(box: Box, ...holes: Box[]): Geometry {
  return { type: 'Polygon', coordinates: [ring(box), ...holes.map(ring)] };
}

export function point(lon: number, lat: number): Geometry {
  return { type: 'Point', coordinates: [lon, lat] };
}

export function line(...positions: [number, number][]): Geometry {
  return { type: 'LineString', coordinates: positions };
}

export function feature(geometry: Geometry, properties: Record<string, unknown> = {}): FeatureInput {
  return { geometry, properties };
}
