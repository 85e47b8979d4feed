// A GeoPackage geometry blob (GeoPackageBinary): "GP", a version, a flags byte (byte order,
// envelope size, empty), the srs_id, the envelope, then standard WKB.

import type { GeoJSONGeometry } from '@landscreen/parcel-io';
import { WkbError, wkbToGeometry } from '../geometry/wkb.js';

/** Envelope bytes by the flags' envelope indicator (0: none, 1: xy, 2: xyz, 3: xym, 4: xyzm). */
const ENVELOPE_BYTES = [0, 32, 48, 48, 64];

export function decodeGeoPackageGeometry(blob: Uint8Array | null): GeoJSONGeometry | null {
  if (blob === null || blob.length === 0) return null;
  if (blob[0] !== 0x47 || blob[1] !== 0x50) throw new WkbError('the geometry is not a GeoPackage binary (no "GP" header)');
  const flags = blob[3];
  if ((flags & 0x20) !== 0) throw new WkbError('an extended GeoPackage geometry type is not readable');
  if ((flags & 0x10) !== 0) return null; // the empty flag
  const envelope = ENVELOPE_BYTES[(flags >> 1) & 0x07];
  if (envelope === undefined) throw new WkbError('the GeoPackage geometry header has an invalid envelope indicator');
  return wkbToGeometry(blob, 8 + envelope);
}
