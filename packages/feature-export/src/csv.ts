import wkx from 'wkx';
import { roundedGeometry } from './geometry.js';
import type { CellValue, ExportSource } from './model.js';

/** One RFC 4180 cell: quoted when it holds a quote, comma or line break; empty for null. */
function cell(value: CellValue): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * CSV (RFC 4180, CRLF): a column per export column, then `geometry_wkt` (the geometry as WKT, as
 * GIS readers such as ogr2ogr take it), a row per feature, written as the pages arrive.
 */
export async function* csvChunks(source: ExportSource): AsyncGenerator<string> {
  const names = source.columns.map((column) => column.name);
  yield `${[...names, 'geometry_wkt'].map(cell).join(',')}\r\n`;
  for await (const page of source.pages) {
    let text = '';
    for (const feature of page) {
      const geometry = roundedGeometry(feature.geometry);
      const wkt = geometry === null ? null : wkx.Geometry.parseGeoJSON(geometry).toWkt();
      text += `${[...names.map((name) => feature.properties[name] ?? null), wkt].map(cell).join(',')}\r\n`;
    }
    if (text) yield text;
  }
}
