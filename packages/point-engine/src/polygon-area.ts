// Polygon areas on the WGS84 authalic sphere with @landscreen/parcel-io's own ring formula, so a
// parcel's acres and an overlay's acres are measured alike. Holes are subtracted; ring
// orientation is ignored.

import { polygonAreaM2, SQUARE_METRES_PER_ACRE } from '@landscreen/parcel-io';
import type { Position } from './geometry.js';

export { polygonAreaM2 };
export const SQUARE_METERS_PER_ACRE = SQUARE_METRES_PER_ACRE;

type Rings = readonly (readonly Position[])[];

export function geodesicAreaM2(geometry: { type: 'Polygon'; coordinates: Rings } | { type: 'MultiPolygon'; coordinates: readonly Rings[] }): number {
  if (geometry.type === 'Polygon') return polygonAreaM2(geometry.coordinates);
  let total = 0;
  for (const polygon of geometry.coordinates) total += polygonAreaM2(polygon);
  return total;
}
