// What a format reader hands the common pipeline (readLayer): a feature still in the file's CRS,
// with the transform to apply. The pipeline reprojects, winds, renames and reports progress once
// for every format.

import type { GeoJSONGeometry } from '@landscreen/parcel-io';
import type { ToWgs84 } from '../crs/crs.js';
import type { FeaturePosition } from '../types.js';

export interface RawFeature {
  position: FeaturePosition;
  /** Shape-checked (rings closed, enough positions) but in the file's CRS; null when the file gives none. */
  geometry: GeoJSONGeometry | null;
  properties: Record<string, unknown>;
  /** The transform of this feature's coordinates to WGS84 (null: longitude/latitude already). */
  toWgs84: ToWgs84 | null;
  crsLabel: string;
}

/** Bytes consumed so far and the total, as a reader knows them. */
export interface ByteCounter {
  bytesRead: number;
  totalBytes: number;
}

export interface FormatReader {
  features: AsyncIterable<RawFeature>;
  bytes: ByteCounter;
  /**
   * Whether every feature carries every attribute of the file (CSV columns, .dbf fields): then a
   * mapped attribute absent from the first feature is absent from the file.
   */
  hasSchema: boolean;
}
