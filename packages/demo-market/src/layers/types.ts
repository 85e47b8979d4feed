// The shapes of the demo's synthetic layers: what a source's recipe yields (features in WGS84, or
// a grid sampled from a function of the local km frame) and what writeDemoLayers reports.

import type { SourceId } from '@landscreen/field-catalog';
import type { Random } from '../random.js';
import type { World } from '../world/world.js';
import type { DemoParcels } from '../generate.js';

export type DemoLayerFormat = 'geojson' | 'ndjson' | 'csv' | 'geotiff';

export type DemoGeometry =
  | { type: 'Point'; coordinates: number[] }
  | { type: 'LineString'; coordinates: number[][] }
  | { type: 'Polygon'; coordinates: number[][][] };

export type PropertyValue = string | number | boolean | null;

export interface DemoLayerFeature {
  geometry: DemoGeometry;
  properties: Record<string, PropertyValue>;
}

/** One written file, as the manifest lists it. */
export interface DemoLayerFile {
  source: SourceId;
  /** Absolute path of the file. */
  path: string;
  format: DemoLayerFormat;
  /** Features written (vector layers). */
  features?: number;
  /** Cells written (grids). */
  cells?: number;
  bytes: number;
}

/** The market's extent in the generator's km frame (x east, y north of the core). */
export interface Extent {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

export interface LayerContext {
  readonly world: World;
  readonly seed: number;
  /** The parcels' bounding box plus a margin, km. */
  readonly extent: Extent;
  readonly parcels: DemoParcels;
  /** An independent random stream per name, so one layer's tuning never moves another's features. */
  random(stream: string): Random;
}

export interface VectorRecipe {
  source: SourceId;
  format: 'geojson' | 'ndjson' | 'csv';
  features(context: LayerContext): Iterable<DemoLayerFeature>;
}

export interface GridRecipe {
  source: SourceId;
  format: 'geotiff';
  /** Wanted cell size, km (coarsened so that no side exceeds MAX_GRID_SIDE cells). */
  cellKm: number;
  /** The band's value at (x, y) km; built once per file. */
  sampler(context: LayerContext): (x: number, y: number) => number;
}

export type LayerRecipe = VectorRecipe | GridRecipe;
