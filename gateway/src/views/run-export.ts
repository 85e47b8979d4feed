import type { ExportColumn, ExportFeature } from '@landscreen/feature-export';
import { factColumn, cell, pointOf } from './export-columns.js';

// A run's results as an export table (D40): a row per location in input order, at its point, with
// its id, a column per field and the null reasons as a JSON object, as the CSV results have them.

interface ResultRecord {
  id: string | null;
  lat: number;
  lon: number;
  values: Record<string, unknown>;
  null_reasons: Record<string, string>;
}

export function runColumns(fields: readonly string[]): ExportColumn[] {
  return [
    { name: 'id', kind: 'string' },
    { name: 'lat', kind: 'number' },
    { name: 'lon', kind: 'number' },
    ...fields.map((field) => factColumn(field, [])),
    { name: 'null_reasons', kind: 'string' },
  ];
}

/** The features of a page of the run's NDJSON results. */
export function runFeatures(ndjson: string, columns: readonly ExportColumn[]): ExportFeature[] {
  const fieldColumns = columns.slice(3, -1);
  return ndjson
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const record = JSON.parse(line) as ResultRecord;
      const properties: ExportFeature['properties'] = { id: record.id, lat: record.lat, lon: record.lon };
      for (const column of fieldColumns) properties[column.name] = cell(record.values[column.name], column);
      properties.null_reasons = Object.keys(record.null_reasons).length === 0 ? null : JSON.stringify(record.null_reasons);
      return { geometry: pointOf(record.lat, record.lon), properties };
    });
}
