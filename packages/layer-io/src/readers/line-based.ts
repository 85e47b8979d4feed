// GeoJSON FeatureCollections, newline-delimited GeoJSON and CSV, through parcel-io's streaming
// parsers. Only a FeatureCollection can declare a CRS (its `crs` member): its positions are
// shape-checked here and range-checked after reprojection. NDJSON (RFC 8142) and CSV are WGS84 by
// definition, checked by the parsers as for parcels.

import {
  CsvParser,
  FeatureCollectionParser,
  NdjsonParser,
  ParcelRowError,
  readParcelBatches,
  type RowParser,
} from '@landscreen/parcel-io';
import { WGS84, isWgs84, transformToWgs84, type Crs, type ToWgs84 } from '../crs/crs.js';
import { crsFromGeoJson } from '../crs/geojson-crs.js';
import { CrsError, LayerReadError } from '../errors.js';
import { LIMIT_SETTINGS, type ImportLimits } from '../limits/import-limits.js';
import type { ByteCounter, FormatReader, RawFeature } from './raw-feature.js';

export type LineBasedFormat = 'geojson' | 'ndjson' | 'csv';

export function readLineBased(path: string, format: LineBasedFormat, limits: ImportLimits, chunkSize?: number): FormatReader {
  const bytes: ByteCounter = { bytesRead: 0, totalBytes: 0 };
  return { features: features(path, format, bytes, limits, chunkSize), bytes, hasSchema: format === 'csv' };
}

async function* features(
  path: string,
  format: LineBasedFormat,
  bytes: ByteCounter,
  limits: ImportLimits,
  chunkSize: number | undefined,
): AsyncGenerator<RawFeature> {
  const depthLimit = { max: limits.maxDepth, setting: LIMIT_SETTINGS.maxDepth };
  let crs: Crs = WGS84;
  let toWgs84: ToWgs84 | null = null;
  let yielded = 0;
  const onCrs = (member: unknown, line: number): void => {
    try {
      crs = crsFromGeoJson(member);
      toWgs84 = transformToWgs84(crs);
    } catch (error) {
      if (error instanceof CrsError) throw new LayerReadError(path, `"crs" member (line ${line}): ${error.message}`);
      throw error;
    }
    // Features already handed on were taken as WGS84; a CRS declared after them would change them.
    if (yielded > 0 && !isWgs84(crs)) {
      throw new LayerReadError(path, `the "crs" member (line ${line}) comes after the first features; move it before "features"`);
    }
  };
  const parser: RowParser =
    format === 'geojson'
      ? new FeatureCollectionParser({ lonLatRanges: false, onCrs, depthLimit })
      : format === 'ndjson'
        ? new NdjsonParser({ depthLimit })
        : new CsvParser();
  const onProgress = (progress: ByteCounter): void => {
    bytes.bytesRead = progress.bytesRead;
    bytes.totalBytes = progress.totalBytes;
  };
  try {
    for await (const rows of readParcelBatches(path, { format, parser, onProgress, chunkSize })) {
      for (const row of rows) {
        yielded++;
        yield {
          position: { index: yielded, line: row.line },
          geometry: row.geometry,
          properties: row.properties,
          toWgs84,
          crsLabel: crs.label,
        };
      }
    }
  } catch (error) {
    if (error instanceof ParcelRowError) {
      throw new LayerReadError(path, error.reason, { index: yielded + 1, line: error.line });
    }
    throw error;
  }
}
