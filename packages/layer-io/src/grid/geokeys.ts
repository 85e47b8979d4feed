// A GeoTIFF's CRS from its geokeys: the EPSG code of ProjectedCSTypeGeoKey for a projected model,
// of GeographicTypeGeoKey for a geographic one. A user-defined CRS (32767: the projection spelt
// out in further keys) is refused rather than half-read; GDAL writes the code for any EPSG CRS.

import { crsFromEpsg, type Crs } from '../crs/crs.js';
import { CrsError } from '../errors.js';

const MODEL_PROJECTED = 1;
const MODEL_GEOGRAPHIC = 2;
const USER_DEFINED = 32767;

export type GeoKeys = Partial<Record<string, unknown>>;

export function crsFromGeoKeys(keys: GeoKeys | null): Crs {
  if (keys === null) throw new CrsError('it has no geokeys, so its CRS cannot be known; write it as a GeoTIFF (e.g. gdal_translate -a_srs EPSG:…)');
  const model = keys.GTModelTypeGeoKey;
  const projected = code(keys.ProjectedCSTypeGeoKey);
  const geographic = code(keys.GeographicTypeGeoKey);
  if (model !== MODEL_GEOGRAPHIC && projected !== null) return usable(projected, 'ProjectedCSTypeGeoKey');
  if (model !== MODEL_PROJECTED && geographic !== null) return usable(geographic, 'GeographicTypeGeoKey');
  throw new CrsError(
    `its geokeys name no EPSG code (GTModelTypeGeoKey ${String(model)}), so its CRS cannot be known; ` +
      'reproject it with an EPSG code (e.g. gdalwarp -t_srs EPSG:4326)',
  );
}

function code(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;
}

function usable(value: number, key: string): Crs {
  if (value === USER_DEFINED) {
    throw new CrsError(`its ${key} is user-defined (32767), not an EPSG code; reproject it with one (e.g. gdalwarp -t_srs EPSG:4326)`);
  }
  return crsFromEpsg(value);
}
