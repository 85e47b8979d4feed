// Writes a demo market to a GeoJSON file as it is generated. One feature per line inside the
// features array (line-oriented tools and the streaming reader can take it apart without parsing
// the whole document), in chunks of about a megabyte, with the stream's backpressure respected:
// a million-parcel file never holds more than one chunk in memory.

import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { generateDemoParcels, type DemoMarketOptions } from './generate.js';

const CHUNK_CHARS = 1 << 20;

export interface WriteDemoGeoJsonResult {
  path: string;
  parcels: number;
  bytes: number;
}

export async function writeDemoGeoJson(path: string, options: DemoMarketOptions = {}): Promise<WriteDemoGeoJsonResult> {
  // Validates the options before the file is created.
  const market = generateDemoParcels(options);
  let parcels = 0;
  let bytes = 0;
  function* chunks(): Generator<string> {
    let chunk = `{"type":"FeatureCollection","name":${JSON.stringify(market.market)},"features":[\n`;
    for (const feature of market) {
      chunk += (parcels++ === 0 ? '' : ',\n') + JSON.stringify(feature);
      if (chunk.length >= CHUNK_CHARS) {
        bytes += Buffer.byteLength(chunk);
        yield chunk;
        chunk = '';
      }
    }
    chunk += `${parcels > 0 ? '\n' : ''}]}\n`;
    bytes += Buffer.byteLength(chunk);
    yield chunk;
  }
  // Open first, so an unwritable path fails before any generating.
  const file = createWriteStream(path);
  await once(file, 'open');
  await pipeline(Readable.from(chunks()), file);
  return { path, parcels, bytes };
}
