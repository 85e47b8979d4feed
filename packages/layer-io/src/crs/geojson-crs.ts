// The 2008 GeoJSON `crs` member. RFC 7946 dropped it (coordinates are WGS84), but GIS exports in
// a projected CRS still write it, and it is the only way such a file says what its numbers mean.
// Axis order stays longitude/latitude (easting/northing) whatever the code's official order: that
// is what every GeoJSON writer does, including for urn:ogc:def:crs:EPSG::4326.

import { CrsError } from '../errors.js';
import { WGS84, crsFromEpsg, type Crs } from './crs.js';

const CRS84 = /^(?:urn:ogc:def:crs:OGC:(?:1\.3)?:CRS84|OGC:CRS84|CRS84|WGS ?84)$/i;
const EPSG_NAME = /^(?:urn:ogc:def:crs:EPSG:[\d.]*:|EPSG:{1,2}|https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/\d+\/)(\d+)$/i;

export function crsFromGeoJson(member: unknown): Crs {
  if (member === null) return WGS84;
  const { type, properties } = (typeof member === 'object' ? member : {}) as { type?: unknown; properties?: unknown };
  const props = (typeof properties === 'object' && properties !== null ? properties : {}) as { name?: unknown; code?: unknown };
  if (type === 'name' && typeof props.name === 'string') {
    const name = props.name.trim();
    if (CRS84.test(name)) return WGS84;
    const epsg = EPSG_NAME.exec(name);
    if (epsg !== null) return crsFromEpsg(Number(epsg[1]));
    throw new CrsError(`"crs" names ${JSON.stringify(name)}, which is not an EPSG code (expected e.g. "urn:ogc:def:crs:EPSG::26914")`);
  }
  if (type === 'EPSG' && (typeof props.code === 'number' || typeof props.code === 'string')) {
    return crsFromEpsg(Number(props.code));
  }
  throw new CrsError(
    `"crs" ${JSON.stringify(member)} does not name a CRS this reader understands (a named EPSG code such as "EPSG:26914")`,
  );
}
