// Polygon areas on the WGS84 authalic sphere: the formula of @landscreen/parcel-io's
// geodesicAreaM2 (spherical excess edge by edge), so a parcel's acres and an overlay's acres are
// measured alike. Holes are subtracted; ring orientation is ignored.

import type { Position } from './geometry.js';

export const AUTHALIC_RADIUS_M = 6_371_007.2;
export const SQUARE_METERS_PER_ACRE = 4_046.856_422_4;

const RAD = Math.PI / 180;

type Rings = readonly (readonly Position[])[];

export function geodesicAreaM2(geometry: { type: 'Polygon'; coordinates: Rings } | { type: 'MultiPolygon'; coordinates: readonly Rings[] }): number {
  if (geometry.type === 'Polygon') return polygonAreaM2(geometry.coordinates);
  let total = 0;
  for (const polygon of geometry.coordinates) total += polygonAreaM2(polygon);
  return total;
}

export function polygonAreaM2(rings: Rings): number {
  if (rings.length === 0) return 0;
  let area = Math.abs(ringExcess(rings[0]));
  for (let i = 1; i < rings.length; i++) area -= Math.abs(ringExcess(rings[i]));
  return Math.max(0, area) * AUTHALIC_RADIUS_M * AUTHALIC_RADIUS_M;
}

function ringExcess(ring: readonly Position[]): number {
  const n = ring.length;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const a = ring[i];
    const b = ring[i + 1 === n ? 0 : i + 1];
    let dLon = (b[0] - a[0]) * RAD;
    if (dLon > Math.PI) dLon -= 2 * Math.PI;
    else if (dLon < -Math.PI) dLon += 2 * Math.PI;
    const t1 = Math.tan((a[1] * RAD) / 2);
    const t2 = Math.tan((b[1] * RAD) / 2);
    sum += 2 * Math.atan2(Math.tan(dLon / 2) * (t1 + t2), 1 + t1 * t2);
  }
  return sum;
}
