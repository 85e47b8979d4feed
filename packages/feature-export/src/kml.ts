import { toKML } from '@placemarkio/tokml';
import { roundedGeometry } from './geometry.js';
import type { ExportFeature, ExportSource } from './model.js';

// @placemarkio/tokml writes a whole document; a page of features is one such document, and its
// Placemarks are what goes between this writer's own document head and tail. So the export streams
// a page at a time while tokml does the KML (escaping, geometry, ExtendedData).
const TOKML_HEAD = '<kml xmlns="http://www.opengis.net/kml/2.2"><Document>';
const TOKML_TAIL = '</Document></kml>';

function escapeXml(text: string): string {
  return text.replace(/[<>&'"]/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** A feature as tokml reads it: the naming column's value as the Placemark name, nulls left out. */
function placemarkFeature(feature: ExportFeature, nameColumn: string | undefined) {
  const properties: Record<string, string | number | boolean> = {};
  const name = nameColumn === undefined ? null : feature.properties[nameColumn];
  if (name !== null && name !== undefined) properties.name = String(name);
  for (const [key, value] of Object.entries(feature.properties)) if (value !== null && key !== 'name') properties[key] = value;
  return { type: 'Feature' as const, geometry: roundedGeometry(feature.geometry) as never, properties };
}

/** KML 2.2: one Document named after the export, a Placemark per feature with its columns as ExtendedData. */
export async function* kmlChunks(source: ExportSource): AsyncGenerator<string> {
  yield `<?xml version="1.0" encoding="UTF-8"?>\n${TOKML_HEAD}<name>${escapeXml(source.name)}</name>\n`;
  // A Placemark is named by the parcel it shows, else the record's id, else the first column.
  const names = source.columns.map((column) => column.name);
  const nameColumn = ['parcel_key', 'id'].find((name) => names.includes(name)) ?? names[0];
  for await (const page of source.pages) {
    if (page.length === 0) continue;
    const document = toKML({ type: 'FeatureCollection', features: page.map((feature) => placemarkFeature(feature, nameColumn)) });
    if (!document.startsWith(TOKML_HEAD) || !document.endsWith(TOKML_TAIL)) throw new Error('tokml wrote a document this writer does not know how to splice');
    yield document.slice(TOKML_HEAD.length, -TOKML_TAIL.length);
  }
  yield `\n${TOKML_TAIL}\n`;
}
