import { structure } from 'dbf';
import type { ExportColumn, ExportFeature } from './model.js';

// The attribute table (.dbf) of a Shapefile. dBase field names have at most 10 characters, so each
// column gets a unique short name (the full names are listed beside the table in the zip); strings
// are written as UTF-8 (the .cpg says so) in fields as wide as their longest value, up to dBase's
// 254 bytes; booleans as the text true or false (empty for null).

const MAX_NAME = 10;
const MAX_TEXT_BYTES = 254;

/** Unique dBase field names of at most 10 characters, in column order. */
export function shortNames(columns: readonly ExportColumn[]): string[] {
  const taken = new Set<string>();
  return columns.map((column) => {
    let name = column.name.slice(0, MAX_NAME);
    for (let n = 1; taken.has(name.toUpperCase()); n++) name = `${column.name.slice(0, MAX_NAME - String(n).length - 1)}_${n}`;
    taken.add(name.toUpperCase());
    return name;
  });
}

/** UTF-8 bytes of a string, cut at a character boundary to fit, as a byte-per-char string (what `dbf` writes). */
function utf8Cell(text: string): string {
  let bytes = Buffer.from(text, 'utf8');
  if (bytes.length > MAX_TEXT_BYTES) {
    let end = MAX_TEXT_BYTES;
    while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end--;
    bytes = bytes.subarray(0, end);
  }
  return bytes.toString('latin1');
}

/** The .dbf of the features, a record each, in order. */
export function dbfTable(columns: readonly ExportColumn[], features: readonly ExportFeature[]): Buffer {
  const names = shortNames(columns);
  const rows = features.map((feature) => {
    const row: Record<string, unknown> = {};
    columns.forEach((column, at) => {
      const value = feature.properties[column.name] ?? null;
      row[names[at]!] = value === null ? null : column.kind === 'number' ? value : utf8Cell(String(value));
    });
    return row;
  });
  const meta = columns.map((column, at) => {
    const name = names[at]!;
    if (column.kind === 'number') return { name, type: 'N' as const, size: 18 };
    // Booleans as text: dBase's logical type has no null, and `dbf` writes a missing one as F.
    const widest = rows.reduce((size, row) => Math.max(size, typeof row[name] === 'string' ? (row[name] as string).length : 0), 1);
    return { name, type: 'C' as const, size: widest };
  });
  const view = structure(rows, meta);
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}
