// RFC 7946 winding (outer rings counter-clockwise, holes clockwise) for every polygon that leaves
// the package. Shapefiles wind the other way round and GeoJSON files either way; consumers that
// compute signed areas or serialise to other tools then need not care where a polygon came from.

import type { GeoJSONGeometry, Position } from '@landscreen/parcel-io';

export function windAsRfc7946(geometry: GeoJSONGeometry): GeoJSONGeometry {
  if (geometry.type === 'Polygon') windPolygon(geometry.coordinates);
  else if (geometry.type === 'MultiPolygon') geometry.coordinates.forEach(windPolygon);
  return geometry;
}

function windPolygon(rings: Position[][]): void {
  rings.forEach((ring, i) => {
    const counterClockwise = signedArea(ring) > 0;
    if (counterClockwise !== (i === 0)) ring.reverse();
  });
}

/** Twice the planar signed area in degrees²: its sign is the ring's orientation. */
function signedArea(ring: Position[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  }
  return sum;
}
