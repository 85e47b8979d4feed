// A layer that names no CRS: its coordinates are taken for longitude/latitude only when its
// extent is plausibly that, and refused otherwise (guessing a projection would put features on
// the wrong continent), as for a Shapefile without .prj.

import { WGS84, type Crs } from './crs.js';
import { CrsError } from '../errors.js';

export function assumedLonLat(extent: readonly [number, number, number, number] | null, missing: string): Crs {
  if (extent === null) return { ...WGS84, label: `EPSG:4326 (assumed: ${missing})` };
  const [minX, minY, maxX, maxY] = extent;
  if (minX >= -180 && maxX <= 180 && minY >= -90 && maxY <= 90) return { ...WGS84, label: `EPSG:4326 (assumed: ${missing})` };
  throw new CrsError(
    `names no CRS (${missing}) and its coordinates (x ${minX}…${maxX}, y ${minY}…${maxY}) are not longitude/latitude, so its CRS cannot be known`,
  );
}
