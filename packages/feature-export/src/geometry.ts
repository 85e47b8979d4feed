// Geometry as exports write it: coordinates rounded to 1e-7° (about a centimetre; D40), and, for
// the Shapefile, rings turned the way that format wants them.

import { roundCoordinate } from '@landscreen/field-catalog';
import type { Geometry } from './model.js';

type Position = number[];

function roundPositions(coordinates: unknown): unknown {
  if (!Array.isArray(coordinates)) return coordinates;
  if (typeof coordinates[0] === 'number') return (coordinates as number[]).map(roundCoordinate);
  return coordinates.map(roundPositions);
}

/** A geometry with every coordinate rounded to 1e-7°. */
export function roundedGeometry(geometry: Geometry | null): Geometry | null {
  if (geometry === null) return null;
  if (geometry.type === 'GeometryCollection') return { type: geometry.type, geometries: (geometry.geometries ?? []).map((part) => roundedGeometry(part)!) };
  return { type: geometry.type, coordinates: roundPositions(geometry.coordinates) };
}

/** Twice the signed area of a ring: positive when it runs counter-clockwise. */
function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j]![0]! - ring[i]![0]!) * (ring[j]![1]! + ring[i]![1]!);
  return -sum;
}

function oriented(ring: Position[], clockwise: boolean): Position[] {
  const isClockwise = signedArea(ring) < 0;
  return isClockwise === clockwise ? ring : [...ring].reverse();
}

/**
 * A polygon's rings as the Shapefile wants them (ESRI: outer rings clockwise, holes counter-
 * clockwise; GeoJSON has it the other way round, and readers tell holes by orientation).
 */
export function shapefileRings(polygon: Position[][]): Position[][] {
  return polygon.map((ring, at) => oriented(ring, at === 0));
}
