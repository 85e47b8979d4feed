// readGrid: a single-band GeoTIFF (elevation, say) as a LayerGrid. geotiff.js reads the file by
// ranges; the band itself is held whole (the one exception to flat memory: rasters are random
// access by nature), as 4-byte floats.

import { fromFile, type GeoTIFFImage } from 'geotiff';
import { transformToWgs84, type Crs } from '../crs/crs.js';
import { CrsError, LayerReadError, errorMessage } from '../errors.js';
import { crsFromGeoKeys } from './geokeys.js';
import type { GeoTransform, LayerGrid } from './types.js';
import type { BBox } from '@landscreen/parcel-io';

const PIXEL_IS_POINT = 2;
/** Points per edge when reprojecting the bounds: a projected edge is curved in lon/lat. */
const EDGE_SAMPLES = 64;

export interface ReadGridOptions {
  onProgress?: (progress: { bytesRead: number; totalBytes: number }) => void;
}

export async function readGrid(path: string, options: ReadGridOptions = {}): Promise<LayerGrid> {
  let tiff;
  try {
    tiff = await fromFile(path);
  } catch (error) {
    throw new LayerReadError(path, `not a readable GeoTIFF: ${errorMessage(error)}`);
  }
  try {
    const image = await tiff.getImage();
    const bands = image.getSamplesPerPixel();
    if (bands !== 1) throw new LayerReadError(path, `the GeoTIFF has ${bands} bands; a grid layer needs a single band`);
    let crs: Crs;
    try {
      crs = crsFromGeoKeys(image.getGeoKeys());
    } catch (error) {
      if (error instanceof CrsError) throw new LayerReadError(path, error.message);
      throw error;
    }
    const width = image.getWidth();
    const height = image.getHeight();
    const geoTransform = geoTransformOf(path, image);
    const bbox = wgs84Bounds(path, crs, geoTransform, width, height);
    const raster = await image.readRasters({ samples: [0], interleave: true });
    const values = raster instanceof Float32Array ? raster : Float32Array.from(raster as ArrayLike<number>);
    const totalBytes = values.byteLength;
    options.onProgress?.({ bytesRead: totalBytes, totalBytes });
    return { width, height, values, noData: image.getGDALNoData(), crs, geoTransform, bbox };
  } catch (error) {
    if (error instanceof LayerReadError) throw error;
    throw new LayerReadError(path, `not a readable GeoTIFF: ${errorMessage(error)}`);
  } finally {
    await tiff.close();
  }
}

function geoTransformOf(path: string, image: GeoTIFFImage): GeoTransform {
  const directory = image.getFileDirectory();
  const tiepoint = directory.getValue('ModelTiepoint') as number[] | undefined;
  const scale = directory.getValue('ModelPixelScale') as number[] | undefined;
  const matrix = directory.getValue('ModelTransformation') as number[] | undefined;
  let transform: GeoTransform;
  if (tiepoint !== undefined && tiepoint.length >= 6 && scale !== undefined) {
    const [i, j, , x, y] = tiepoint;
    const [sx, sy] = scale;
    transform = [x - i * sx, sx, 0, y + j * sy, 0, -sy];
  } else if (matrix !== undefined && matrix.length >= 8) {
    if (matrix[1] !== 0 || matrix[4] !== 0) throw new LayerReadError(path, 'the GeoTIFF grid is rotated (ModelTransformation); warp it north-up first');
    transform = [matrix[3], matrix[0], 0, matrix[7], 0, matrix[5]];
  } else {
    throw new LayerReadError(path, 'the GeoTIFF has no georeferencing (ModelTiepoint/ModelPixelScale or ModelTransformation)');
  }
  // A point-registered grid's tiepoint is a cell centre; the transform is at corners (as GDAL).
  if (image.getGeoKeys()?.GTRasterTypeGeoKey === PIXEL_IS_POINT) {
    transform[0] -= transform[1] / 2;
    transform[3] -= transform[5] / 2;
  }
  return transform;
}

function wgs84Bounds(path: string, crs: Crs, t: GeoTransform, width: number, height: number): BBox {
  const toWgs84 = transformToWgs84(crs);
  const bounds: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  const add = (col: number, row: number): void => {
    const x = t[0] + col * t[1];
    const y = t[3] + row * t[5];
    const [lon, lat] = toWgs84 === null ? [x, y] : toWgs84(x, y);
    if (!(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90)) {
      throw new LayerReadError(path, `the grid corner or edge [${x}, ${y}] in ${crs.label} is out of range after reprojection to WGS84`);
    }
    bounds[0] = Math.min(bounds[0], lon);
    bounds[1] = Math.min(bounds[1], lat);
    bounds[2] = Math.max(bounds[2], lon);
    bounds[3] = Math.max(bounds[3], lat);
  };
  for (let k = 0; k <= EDGE_SAMPLES; k++) {
    const f = k / EDGE_SAMPLES;
    add(f * width, 0);
    add(f * width, height);
    add(0, f * height);
    add(width, f * height);
  }
  return bounds;
}
