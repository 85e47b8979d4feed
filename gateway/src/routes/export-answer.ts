import {
  EXPORT_MEDIA_TYPES,
  ExportTooLargeError,
  FORMAT_FILES,
  MAX_SHAPEFILE_FEATURES,
  exportStream,
  type ExportFormat,
  type ExportFeature,
  type ExportSource,
} from '@landscreen/feature-export';
import { ApiError } from '../errors/index.js';
import type { RouteResult } from './route.js';

export { EXPORT_MEDIA_TYPES };

/** Features already at hand (a board, a delivery) as the one page of an export source. */
export async function* onePage(features: readonly ExportFeature[]): AsyncGenerator<readonly ExportFeature[]> {
  yield features;
}

/** A file name's stem from what it names: letters, digits, `-`, `_` and `.` only. */
export function fileStem(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 100) || 'export';
}

/**
 * The 200 answer of an export: the file streamed, with its media type and an attachment name.
 * A Shapefile bigger than its bound is 413 `export_too_large` before anything is sent; the caller
 * checks a count it knows first where it can, so that the refusal costs nothing.
 */
export async function exportAnswer(format: ExportFormat, source: ExportSource, stem: string): Promise<RouteResult> {
  let body;
  try {
    body = await exportStream(format, source);
  } catch (error) {
    if (error instanceof ExportTooLargeError) throw exportTooLarge(error.limit);
    throw error;
  }
  const { contentType, extension } = FORMAT_FILES[format];
  return { status: 200, body, headers: { 'content-type': contentType, 'content-disposition': `attachment; filename="${fileStem(stem)}.${extension}"` } };
}

export const exportTooLarge = (limit = MAX_SHAPEFILE_FEATURES) =>
  new ApiError(413, 'export_too_large', `A Shapefile export holds at most ${limit} features; export as gpkg, geojson, csv or kml instead.`, { limit });

/** Refuses a Shapefile export of more features than it may hold, before any work. */
export function checkExportSize(format: ExportFormat, count: number): void {
  if (format === 'shapefile' && count > MAX_SHAPEFILE_FEATURES) throw exportTooLarge();
}
