// A feature's geometry, validated in the file's CRS, brought to WGS84: every position transformed
// in place (a z value is kept), then checked against longitude/latitude ranges, which is where a
// wrong or missing CRS shows (an easting of 500,000 is no longitude).

import type { GeoJSONGeometry, Position } from '@landscreen/parcel-io';
import type { ToWgs84 } from '../crs/crs.js';

export class CoordinateError extends Error {
  override readonly name = 'CoordinateError';
}

/** `crsLabel` names the source CRS in the error, so a wrong .prj is easy to spot. */
export function geometryToWgs84(geometry: GeoJSONGeometry, toWgs84: ToWgs84 | null, crsLabel: string): GeoJSONGeometry {
  const visit = (position: Position): void => {
    if (toWgs84 !== null) {
      const x = position[0];
      const y = position[1];
      const [lon, lat] = toWgs84(x, y);
      position[0] = lon;
      position[1] = lat;
      if (!inRange(lon, lat)) {
        const got = Number.isNaN(lon) ? 'no valid longitude/latitude' : `[${lon}, ${lat}]`;
        throw new CoordinateError(`coordinates [${x}, ${y}] in ${crsLabel} are out of range after reprojection to WGS84 (got ${got})`);
      }
    } else if (!inRange(position[0], position[1])) {
      throw new CoordinateError(
        `coordinates [${position[0]}, ${position[1]}] are out of range for WGS84 longitude/latitude ` +
          '(a projected CRS the file does not declare?)',
      );
    }
  };
  switch (geometry.type) {
    case 'Point':
      visit(geometry.coordinates);
      break;
    case 'MultiPoint':
    case 'LineString':
      geometry.coordinates.forEach(visit);
      break;
    case 'MultiLineString':
    case 'Polygon':
      for (const line of geometry.coordinates) line.forEach(visit);
      break;
    case 'MultiPolygon':
      for (const polygon of geometry.coordinates) for (const ring of polygon) ring.forEach(visit);
      break;
  }
  return geometry;
}

function inRange(lon: number, lat: number): boolean {
  return lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90;
}
