// A grid recipe sampled at its cell centres over the extent and written as a single-band
// Float32 GeoTIFF in EPSG:4326 (north-up, pixel-is-area), with geotiff.js's writer. A grid is
// held whole while written (as readers hold it whole): sides are capped to keep that modest.

import { writeFile } from 'node:fs/promises';
import { writeArrayBuffer } from 'geotiff';
import { latOf, lonOf, xOf, yOf } from '../geo.js';
import type { Extent, GridRecipe, LayerContext } from './types.js';

/** Cells per side at most: 3,000 x 3,000 Float32 cells are 36 MB. */
export const MAX_GRID_SIDE = 3000;

export async function writeGrid(path: string, recipe: GridRecipe, context: LayerContext): Promise<number> {
  const { extent } = context;
  const cellKm = Math.max(recipe.cellKm, (extent.x1 - extent.x0) / MAX_GRID_SIDE, (extent.y1 - extent.y0) / MAX_GRID_SIDE);
  const layout = gridLayout(extent, cellKm);
  const sample = recipe.sampler(context);
  const values = new Float32Array(layout.width * layout.height);
  for (let row = 0; row < layout.height; row++) {
    const y = yOf(layout.north - (row + 0.5) * layout.dLat);
    for (let col = 0; col < layout.width; col++) {
      values[row * layout.width + col] = sample(xOf(layout.west + (col + 0.5) * layout.dLon), y);
    }
  }
  const tiff = writeArrayBuffer(values, {
    width: layout.width,
    height: layout.height,
    ModelPixelScale: [layout.dLon, layout.dLat, 0],
    ModelTiepoint: [0, 0, 0, layout.west, layout.north, 0],
    GTModelTypeGeoKey: 2,
    GTRasterTypeGeoKey: 1,
    GeographicTypeGeoKey: 4326,
  });
  await writeFile(path, new Uint8Array(tiff));
  return values.length;
}

interface GridLayout {
  width: number;
  height: number;
  west: number;
  north: number;
  dLon: number;
  dLat: number;
}

/** Cells square in km at the core's latitude, covering the extent; degrees rounded to keep the geotransform short. */
function gridLayout(extent: Extent, cellKm: number): GridLayout {
  const dLon = round9(lonOf(cellKm) - lonOf(0));
  const dLat = round9(latOf(cellKm) - latOf(0));
  const west = round9(lonOf(extent.x0));
  const north = round9(latOf(extent.y1));
  return {
    width: Math.ceil((lonOf(extent.x1) - west) / dLon),
    height: Math.ceil((north - latOf(extent.y0)) / dLat),
    west,
    north,
    dLon,
    dLat,
  };
}

function round9(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}
