// Distances on the WGS84 ellipsoid. Candidate searches work in a local plane around the query
// point scaled by the ellipsoid's radii of curvature at its latitude (Mapbox's "cheap ruler"):
// the search box of a radius is then exact, and within 20 km the plane distance differs from the
// geodesic by less than 1e-4 (0.3 m at 20 km, see geodesy.test.ts). Reported distances beyond
// 20 km are recomputed with Vincenty's inverse formula on the ellipsoid.

const A = 6_378_137;
const F = 1 / 298.257_223_563;
const B = A * (1 - F);
const E2 = F * (2 - F);
const RAD = Math.PI / 180;

/** Beyond this the plane of the ruler drifts from the ellipsoid by more than 1e-4. */
export const RULER_EXACT_WITHIN_M = 20_000;

export interface Ruler {
  /** Meters per degree of longitude at the ruler's latitude. */
  readonly kx: number;
  /** Meters per degree of latitude at the ruler's latitude. */
  readonly ky: number;
}

export function rulerAt(lat: number): Ruler {
  const cos = Math.cos(lat * RAD);
  const w2 = 1 / (1 - E2 * (1 - cos * cos));
  const w = Math.sqrt(w2);
  const m = RAD * A;
  return { kx: m * w * cos, ky: m * w * w2 * (1 - E2) };
}

/** Longitude difference folded into [-180, 180]. */
export function wrapLon(dLon: number): number {
  return dLon > 180 ? dLon - 360 : dLon < -180 ? dLon + 360 : dLon;
}

/** Geodesic meters between two points; the plane is used only where it is exact to 1e-4. */
export function distanceM(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const ruler = rulerAt((lat1 + lat2) / 2);
  const dx = wrapLon(lon2 - lon1) * ruler.kx;
  const dy = (lat2 - lat1) * ruler.ky;
  const plane = Math.sqrt(dx * dx + dy * dy);
  return plane < RULER_EXACT_WITHIN_M ? plane : vincentyM(lon1, lat1, lon2, lat2);
}

/**
 * Vincenty's inverse formula on WGS84 (millimetre accuracy). Nearly antipodal points, where it
 * does not converge, fall back to the great circle on the mean sphere.
 */
export function vincentyM(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const L = wrapLon(lon2 - lon1) * RAD;
  const U1 = Math.atan((1 - F) * Math.tan(lat1 * RAD));
  const U2 = Math.atan((1 - F) * Math.tan(lat2 * RAD));
  const sinU1 = Math.sin(U1);
  const cosU1 = Math.cos(U1);
  const sinU2 = Math.sin(U2);
  const cosU2 = Math.cos(U2);
  let lambda = L;
  for (let i = 0; i < 200; i++) {
    const sinL = Math.sin(lambda);
    const cosL = Math.cos(lambda);
    const sinSigma = Math.sqrt((cosU2 * sinL) ** 2 + (cosU1 * sinU2 - sinU1 * cosU2 * cosL) ** 2);
    if (sinSigma === 0) return 0;
    const cosSigma = sinU1 * sinU2 + cosU1 * cosU2 * cosL;
    const sigma = Math.atan2(sinSigma, cosSigma);
    const sinAlpha = (cosU1 * cosU2 * sinL) / sinSigma;
    const cos2Alpha = 1 - sinAlpha * sinAlpha;
    const cos2SigmaM = cos2Alpha === 0 ? 0 : cosSigma - (2 * sinU1 * sinU2) / cos2Alpha;
    const C = (F / 16) * cos2Alpha * (4 + F * (4 - 3 * cos2Alpha));
    const previous = lambda;
    lambda = L + (1 - C) * F * sinAlpha * (sigma + C * sinSigma * (cos2SigmaM + C * cosSigma * (-1 + 2 * cos2SigmaM ** 2)));
    if (Math.abs(lambda - previous) < 1e-12) {
      const u2 = (cos2Alpha * (A * A - B * B)) / (B * B);
      const bigA = 1 + (u2 / 16384) * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)));
      const bigB = (u2 / 1024) * (256 + u2 * (-128 + u2 * (74 - 47 * u2)));
      const deltaSigma =
        bigB *
        sinSigma *
        (cos2SigmaM +
          (bigB / 4) *
            (cosSigma * (-1 + 2 * cos2SigmaM ** 2) -
              (bigB / 6) * cos2SigmaM * (-3 + 4 * sinSigma ** 2) * (-3 + 4 * cos2SigmaM ** 2)));
      return B * bigA * (sigma - deltaSigma);
    }
  }
  return greatCircleM(lon1, lat1, lon2, lat2);
}

const MEAN_RADIUS_M = (2 * A + B) / 3;

function greatCircleM(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const dLat = (lat2 - lat1) * RAD;
  const dLon = wrapLon(lon2 - lon1) * RAD;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * Math.sin(dLon / 2) ** 2;
  return 2 * MEAN_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** Bounding box [minLon, minLat, maxLon, maxLat] of every point within `radiusM` in the ruler's plane. */
export function searchBox(lon: number, lat: number, radiusM: number, ruler: Ruler): [number, number, number, number] {
  const dLon = radiusM / ruler.kx;
  const dLat = radiusM / ruler.ky;
  return [lon - dLon, Math.max(-90, lat - dLat), lon + dLon, Math.min(90, lat + dLat)];
}
