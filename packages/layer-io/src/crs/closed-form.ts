// Closed-form inverses of the projections publishers ship most (Albers Equal Area as NWI's and
// the national layers' EPSG:5070, Web Mercator), used instead of proj4's generic transform for
// the millions of vertices of a state's layer. proj4 stays the general path: a definition is
// only taken here when proj4 parsed it into one of these forms on a WGS84-aligned datum in
// metres, and the closed form agrees with proj4 on a lattice over the projection's domain when it
// is built (checkedAgainstProj4), else proj4 answers.
//
// Each inverse answers [NaN, NaN] outside the projection's domain instead of wrapping, which is
// what proj4's forward-then-inverse round trip checks for: an Albers point beyond the cone's
// opening, or a Mercator easting past the antimeridian, is no real place.

import type { Converter } from 'proj4';
import type { ToWgs84 } from './to-wgs84.js';

/** The parameters proj4 parses a definition into (its Proj object), as far as these read them. */
export interface ParsedProjection {
  /** The projection's names, proj4's own ('aea', 'merc') among them, whatever the definition called it. */
  names?: readonly string[];
  units?: string;
  to_meter?: number;
  axis?: string;
  a: number;
  e: number;
  es: number;
  x0?: number;
  y0?: number;
  k0?: number;
  long0?: number;
  lat0?: number;
  lat1?: number;
  lat2?: number;
  sphere?: boolean;
  datum?: { datum_type: number; datum_params?: number[] };
}

const RAD = 180 / Math.PI;
/** proj4's datum types that need no shift to WGS84: PJD_WGS84 and "no datum" (Web Mercator's @null grid). */
const WGS84_ALIGNED = new Set([4, 5]);
/** 1e-9° is a tenth of a millimetre: far below the 1 mm the closed forms are held to. */
const AGREEMENT_DEGREES = 1e-9;

/** A closed-form inverse for `projection`, or null where proj4's general path must answer. */
export function closedFormToWgs84(projection: ParsedProjection, converter: Converter): ToWgs84 | null {
  if (!metricEastNorth(projection)) return null;
  const names = projection.names ?? [];
  const built = names.includes('aea') ? albersInverse(projection) : names.includes('merc') ? mercatorInverse(projection) : null;
  if (built === null) return null;
  return checkedAgainstProj4(built.inverse, built.samples, converter) ? built.inverse : null;
}

function metricEastNorth(projection: ParsedProjection): boolean {
  const datumType = projection.datum?.datum_type ?? -1;
  const datumShift = projection.datum?.datum_params?.some((value) => value !== 0) ?? false;
  return (
    (projection.units === undefined || /^(m|metres?|meters?)$/i.test(projection.units)) &&
    (projection.to_meter === undefined || projection.to_meter === 1) &&
    (projection.axis === undefined || projection.axis === 'enu') &&
    WGS84_ALIGNED.has(datumType) &&
    !datumShift
  );
}

interface Built {
  inverse: ToWgs84;
  /** Longitude/latitude points (degrees) inside the domain, to check the inverse on. */
  samples: Array<[number, number]>;
}

/** Snyder, Map Projections — A Working Manual (1987), §14, on the ellipsoid. */
function albersInverse(p: ParsedProjection): Built | null {
  const { a, e, es } = p;
  if (p.lat1 === undefined || p.lat2 === undefined || p.lat0 === undefined || p.long0 === undefined || p.sphere || !(e > 0)) return null;
  const k0 = p.k0 ?? 1;
  const x0 = p.x0 ?? 0;
  const y0 = p.y0 ?? 0;
  const long0 = p.long0;
  const m = (phi: number) => Math.cos(phi) / Math.sqrt(1 - es * Math.sin(phi) ** 2);
  const q = (phi: number) => {
    const sin = Math.sin(phi);
    return (1 - es) * (sin / (1 - es * sin * sin) - (1 / (2 * e)) * Math.log((1 - e * sin) / (1 + e * sin)));
  };
  const m1 = m(p.lat1);
  const m2 = m(p.lat2);
  const q1 = q(p.lat1);
  const q2 = q(p.lat2);
  const n = Math.abs(p.lat1 - p.lat2) > 1e-10 ? (m1 * m1 - m2 * m2) / (q2 - q1) : Math.sin(p.lat1);
  if (Math.abs(n) < 1e-10) return null;
  const c = m1 * m1 + n * q1;
  const rho0 = (a * Math.sqrt(c - n * q(p.lat0))) / n;
  const qPole = q(Math.PI / 2);
  // The authalic latitude β to the geodetic φ: Snyder's series (3-18), then one Newton step on
  // q(φ) = q (3-16), which squares the series' ~1e-10 rad error away.
  const e4 = es * es;
  const e6 = e4 * es;
  const s2 = es / 3 + (31 * e4) / 180 + (517 * e6) / 5040;
  const s4 = (23 * e4) / 360 + (251 * e6) / 3780;
  const s6 = (761 * e6) / 45360;
  const sign = n >= 0 ? 1 : -1;

  const inverse: ToWgs84 = (x, y) => {
    const dx = sign * ((x - x0) / k0);
    const dy = sign * (rho0 - (y - y0) / k0);
    const rho = Math.sqrt(dx * dx + dy * dy);
    const theta = rho === 0 ? 0 : Math.atan2(dx, dy);
    const dLon = theta / n;
    const ratio = (rho * n) / a;
    let qs = (c - ratio * ratio) / n;
    // Outside the cone's opening, or beyond a pole: no place projects there.
    if (!(Math.abs(dLon) <= Math.PI) || !(Math.abs(qs) <= qPole * (1 + 1e-12))) return [NaN, NaN];
    if (Math.abs(qs) > qPole) qs = Math.sign(qs) * qPole;
    const beta = Math.asin(qs / qPole);
    const sin2 = Math.sin(2 * beta);
    const cos2 = Math.cos(2 * beta);
    // sin 4β = 2 sin 2β cos 2β, sin 6β = sin 2β (3 − 4 sin² 2β): one sine and one cosine.
    let phi = beta + s2 * sin2 + s4 * 2 * sin2 * cos2 + s6 * sin2 * (3 - 4 * sin2 * sin2);
    const cosPhi = Math.cos(phi);
    if (cosPhi > 1e-10) {
      const sinPhi = Math.sin(phi);
      const con = e * sinPhi;
      const com = 1 - con * con;
      phi += ((0.5 * com * com) / cosPhi) * (qs / (1 - es) - sinPhi / com + (0.5 / e) * Math.log((1 - con) / (1 + con)));
    }
    return [wrapDegrees((long0 + dLon) * RAD), phi * RAD];
  };
  const samples: Array<[number, number]> = [];
  const lat0 = p.lat0 * RAD;
  for (let dLon = -60; dLon <= 60; dLon += 7.5) {
    for (let lat = Math.max(-85, lat0 - 30); lat <= Math.min(85, lat0 + 50); lat += 5) samples.push([wrapDegrees(long0 * RAD + dLon), lat]);
  }
  return { inverse, samples };
}

/** Spherical Mercator, as Web Mercator (EPSG:3857) is defined: an ellipsoidal Mercator stays with proj4. */
function mercatorInverse(p: ParsedProjection): Built | null {
  if (!p.sphere) return null;
  const a = p.a * (p.k0 ?? 1);
  const x0 = p.x0 ?? 0;
  const y0 = p.y0 ?? 0;
  const long0 = p.long0 ?? 0;
  const inverse: ToWgs84 = (x, y) => {
    const dLon = (x - x0) / a;
    // Past the antimeridian, an easting would wrap onto another place.
    if (!(Math.abs(dLon) <= Math.PI * (1 + 1e-12)) || !Number.isFinite(y)) return [NaN, NaN];
    return [wrapDegrees((long0 + dLon) * RAD), (Math.PI / 2 - 2 * Math.atan(Math.exp(-(y - y0) / a))) * RAD];
  };
  const samples: Array<[number, number]> = [];
  for (let lon = -175; lon <= 175; lon += 25) for (let lat = -80; lat <= 80; lat += 10) samples.push([lon, lat]);
  return { inverse, samples };
}

/** proj4 projects each sample forward; the closed form must bring it back to proj4's own inverse. */
function checkedAgainstProj4(inverse: ToWgs84, samples: ReadonlyArray<[number, number]>, converter: Converter): boolean {
  for (const [lon, lat] of samples) {
    let projected: number[];
    let expected: number[];
    try {
      projected = converter.inverse([lon, lat]);
      expected = converter.forward(projected);
    } catch {
      continue;
    }
    if (!projected.every(Number.isFinite) || !expected.every(Number.isFinite)) continue;
    const [gotLon, gotLat] = inverse(projected[0], projected[1]);
    if (!(Math.abs(gotLat - expected[1]) <= AGREEMENT_DEGREES && Math.abs(wrapDegrees(gotLon - expected[0])) <= AGREEMENT_DEGREES)) return false;
  }
  return true;
}

function wrapDegrees(lon: number): number {
  return lon > 180 || lon < -180 ? lon - 360 * Math.round(lon / 360) : lon;
}
