// A file's coordinate reference system and the transform of its coordinates to WGS84.

import proj4, { type Converter } from 'proj4';
import { CrsError, errorMessage } from '../errors.js';
import { closedFormToWgs84, type ParsedProjection } from './closed-form.js';
import { KNOWN_CODES_SUMMARY, registerDefinitions } from './definitions.js';
import { epsgIndexEntry } from './epsg-index.js';
import type { ToWgs84 } from './to-wgs84.js';

export interface Crs {
  /** How the file names it, for messages and provenance: "EPSG:26914", or a .prj's CRS name. */
  label: string;
  /** What proj4 is given: a registered code ("EPSG:26914") or WKT. Storable, to rebuild the transform. */
  definition: string;
}

export const WGS84: Crs = { label: 'EPSG:4326', definition: 'EPSG:4326' };

export type { ToWgs84 } from './to-wgs84.js';

/** Codes whose coordinates already are longitude/latitude on WGS84 axes: no transform at all. */
const LON_LAT_CODES = new Set(['EPSG:4326', 'OGC:CRS84']);

export function isWgs84(crs: Crs): boolean {
  return LON_LAT_CODES.has(crs.definition);
}

export function crsFromEpsg(code: number): Crs {
  registerDefinitions();
  const definition = `EPSG:${code}`;
  if (Number.isInteger(code) && code > 0 && proj4.defs(definition) === undefined) {
    const entry = epsgIndexEntry(code);
    if (entry !== null) proj4.defs(definition, entry.proj4);
  }
  if (!Number.isInteger(code) || code <= 0 || proj4.defs(definition) === undefined) {
    throw new CrsError(
      `${definition} is not a CRS this build can reproject (it knows ${KNOWN_CODES_SUMMARY}); ` +
        'reproject the file to EPSG:4326 (e.g. ogr2ogr -t_srs EPSG:4326) or provide a .prj with its WKT',
    );
  }
  return { label: definition, definition };
}

/** A .prj's WKT (ESRI or OGC flavour), checked now so a bad one fails before the first feature. */
export function crsFromWkt(wkt: string): Crs {
  const text = wkt.trim();
  if (text === '') throw new CrsError('the .prj is empty');
  const crs = { label: wktName(text) ?? 'the .prj CRS', definition: text };
  transformToWgs84(crs);
  return crs;
}

/** The transform, or null when the coordinates are longitude/latitude already. */
export function transformToWgs84(crs: Crs): ToWgs84 | null {
  if (isWgs84(crs)) return null;
  registerDefinitions();
  let converter: Converter;
  try {
    converter = proj4(crs.definition, 'EPSG:4326');
    converter.forward([0, 0]); // some definitions only fail when first used
  } catch (error) {
    throw new CrsError(`${crs.label} cannot be reprojected to WGS84: ${errorMessage(error) || 'proj4 does not understand it'}`);
  }
  return closedFormToWgs84(new proj4.Proj(crs.definition) as unknown as ParsedProjection, converter) ?? generalToWgs84(converter);
}

/** proj4's generic transform, checked by its round trip. */
function generalToWgs84(converter: Converter): ToWgs84 {
  return (x, y) => {
    try {
      const [lon, lat] = converter.forward([x, y]);
      // Projections are periodic or clamp far outside their domain (a UTM northing of 10¹² comes
      // back as latitude 32°): only a point that projects back to itself is a real place.
      const [x2, y2] = converter.inverse([lon, lat]);
      const tolerance = ROUND_TRIP_TOLERANCE * Math.max(1, Math.abs(x), Math.abs(y));
      return Math.abs(x2 - x) <= tolerance && Math.abs(y2 - y) <= tolerance ? [lon, lat] : [NaN, NaN];
    } catch {
      return [NaN, NaN]; // proj4 throws on non-finite intermediate values
    }
  };
}

/** Relative: half a metre at a UTM northing of 5,000 km, a metre in degrees. */
const ROUND_TRIP_TOLERANCE = 1e-7;

function wktName(wkt: string): string | null {
  return /^\s*[A-Z_]+\s*\[\s*"([^"]*)"/i.exec(wkt)?.[1] ?? null;
}
