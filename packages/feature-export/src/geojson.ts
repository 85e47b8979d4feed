import { roundedGeometry } from './geometry.js';
import type { ExportSource } from './model.js';

/**
 * A GeoJSON FeatureCollection (RFC 7946), written a feature at a time as the pages arrive: the
 * whole collection is never held.
 */
export async function* geojsonChunks(source: ExportSource): AsyncGenerator<string> {
  yield '{"type":"FeatureCollection","features":[';
  let first = true;
  for await (const page of source.pages) {
    let text = '';
    for (const feature of page) {
      text += `${first ? '' : ','}${JSON.stringify({ type: 'Feature', geometry: roundedGeometry(feature.geometry), properties: feature.properties })}`;
      first = false;
    }
    if (text) yield text;
  }
  yield ']}\n';
}
