// EPSG codes beyond the ones written out in definitions.ts: the EPSG dataset as epsg-index ships
// it, one small JSON file per code (read on first use, not the 5 MB of all.json), whose proj4
// string proj4 is given. So any projected or geographic CRS a GeoTIFF's geokeys or a GeoJSON
// "crs" name by code can be reprojected without a network (State Plane in feet, other UTM
// datums, national grids), with EPSG's own parameters rather than ones copied by hand.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const require = createRequire(import.meta.url);
/** The package's folder of one JSON file per code. */
const CODES = path.join(path.dirname(require.resolve('epsg-index/package.json')), 's');

interface EpsgEntry {
  code: string;
  kind: string;
  name: string;
  proj4: string;
}

/** CRS kinds a code can be reprojected from: geographic 2D and projected. */
const REPROJECTABLE = new Set(['CRS-GEOGCRS', 'CRS-PROJCRS']);

/** The proj4 definition and name EPSG gives `code`, or null when it names no reprojectable CRS. */
export function epsgIndexEntry(code: number): { name: string; proj4: string } | null {
  if (!Number.isInteger(code) || code <= 0) return null;
  let entry: EpsgEntry;
  try {
    entry = JSON.parse(readFileSync(path.join(CODES, `${code}.json`), 'utf8')) as EpsgEntry;
  } catch {
    return null;
  }
  if (!REPROJECTABLE.has(entry.kind) || typeof entry.proj4 !== 'string' || entry.proj4.trim() === '') return null;
  return { name: entry.name, proj4: entry.proj4 };
}
