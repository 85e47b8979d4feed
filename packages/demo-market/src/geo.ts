// Coordinates. The generator thinks in a flat local frame (kilometres east and north of the
// market's centre), where distances and splits are cheap, and only turns vertices into WGS84
// degrees when it writes a polygon. The frame is a plain equirectangular one: linear, so a
// straight edge in it is a straight edge in lon/lat, and a convex quadrilateral stays one.

/** Mean Earth radius (IUGG), the sphere the acreage is measured on. */
export const EARTH_RADIUS_M = 6_371_008.8;
export const SQUARE_METERS_PER_ACRE = 4046.8564224;
export const ACRES_PER_SQUARE_KM = 1e6 / SQUARE_METERS_PER_ACRE;

/** Central Texas, a little east of downtown Austin: the demo market's urban core. */
export const DEMO_CENTER = Object.freeze({ lon: -97.74, lat: 30.27 });

const DEG = Math.PI / 180;
const KM_PER_DEGREE_LAT = (EARTH_RADIUS_M * DEG) / 1000;
const KM_PER_DEGREE_LON = KM_PER_DEGREE_LAT * Math.cos(DEMO_CENTER.lat * DEG);

export function lonOf(xKm: number): number {
  return DEMO_CENTER.lon + xKm / KM_PER_DEGREE_LON;
}

export function latOf(yKm: number): number {
  return DEMO_CENTER.lat + yKm / KM_PER_DEGREE_LAT;
}

export function xOf(lon: number): number {
  return (lon - DEMO_CENTER.lon) * KM_PER_DEGREE_LON;
}

export function yOf(lat: number): number {
  return (lat - DEMO_CENTER.lat) * KM_PER_DEGREE_LAT;
}

/**
 * Degrees rounded to 6 places (about 0.1 m): short JSON, and neighbouring parcels that share a
 * vertex still share it exactly because both round the same double.
 */
export function roundDegrees(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * Area of a lon/lat polygon ring on the sphere, in square metres: the shoelace formula in the
 * Lambert cylindrical equal-area projection (x = lon, y = sin lat), which is exact for edges
 * straight in that projection and differs from geodesic edges by far less than a square metre at
 * parcel scale. The ring is closed (first position repeated last); the sign is dropped.
 */
export function ringAreaSquareMeters(ring: readonly (readonly number[])[]): number {
  let twice = 0;
  let sinPrevious = Math.sin(ring[0][1] * DEG);
  for (let i = 1; i < ring.length; i++) {
    const sin = Math.sin(ring[i][1] * DEG);
    twice += (ring[i][0] - ring[i - 1][0]) * DEG * (sinPrevious + sin);
    sinPrevious = sin;
  }
  return Math.abs((twice / 2) * EARTH_RADIUS_M * EARTH_RADIUS_M);
}
