// A run's results as CSV (RFC 4180, CRLF): id, lat, lon, a column per field (empty for a null),
// then the null reasons as a JSON object. Values are the result objects' (already rounded per
// field by the JSON writer): CSV writes them as the JSON gave them.

import type { ResultRecord } from './result-record.js';

/** The header record. */
export function resultCsvHeader(fields: readonly string[]): string {
  return `${['id', 'lat', 'lon', ...fields, 'null_reasons'].map(csvCell).join(',')}\r\n`;
}

/** One result object as a CSV record. */
export function resultCsvRow(fields: readonly string[], record: ResultRecord): string {
  const cells = [record.id, record.lat, record.lon, ...fields.map((field) => record.values[field] ?? null)].map(csvCell);
  cells.push(Object.keys(record.null_reasons).length === 0 ? '' : csvCell(JSON.stringify(record.null_reasons)));
  return `${cells.join(',')}\r\n`;
}

function csvCell(value: string | number | boolean | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
