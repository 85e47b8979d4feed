// FlatGeobuf through the `flatgeobuf` package's streaming deserializer: the header (columns,
// CRS, count), then one feature at a time from a file stream. The CRS is the header's: an EPSG
// code this build knows, else its WKT; a header without one is longitude/latitude only when the
// envelope is plausibly that. FlatGeobuf leaves null attributes out of a feature: they come back
// as null, so every feature carries every column.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { ReadableStream } from 'node:stream/web';
import type { HeaderMeta } from 'flatgeobuf';
import { deserialize } from 'flatgeobuf/lib/mjs/geojson.js';
import { crsFromEpsg, crsFromWkt, isWgs84, transformToWgs84, WGS84, type Crs } from '../crs/crs.js';
import { assumedLonLat } from '../crs/assumed.js';
import { CrsError, LayerReadError, errorMessage } from '../errors.js';
import type { ReadLayerOptions } from '../types.js';
import { checkedGeometry } from './checked-geometry.js';
import type { ByteCounter, FormatReader, RawFeature } from './raw-feature.js';

const READ_BUFFER = 1 << 20;

/** `_options` is the pipeline's: what the import limits will read. */
export function readFlatGeobuf(path: string, _options: ReadLayerOptions): FormatReader {
  const bytes: ByteCounter = { bytesRead: 0, totalBytes: 0 };
  return { features: features(path, bytes), bytes, hasSchema: true };
}

async function* features(path: string, bytes: ByteCounter): AsyncGenerator<RawFeature> {
  bytes.totalBytes = (await stat(path)).size;
  const file = createReadStream(path, { highWaterMark: READ_BUFFER });
  file.on('data', (chunk) => (bytes.bytesRead += chunk.length));
  let header: HeaderMeta | null = null;
  let crs: Crs = WGS84;
  let toWgs84: ((x: number, y: number) => [number, number]) | null = null;
  let columns: string[] = [];
  let index = 0;
  try {
    const stream = Readable.toWeb(file) as unknown as ReadableStream;
    const features = deserialize(stream as never, {
      headerMetaFn: (meta: HeaderMeta) => {
        header = meta;
        crs = flatGeobufCrs(path, meta);
        toWgs84 = transformToWgs84(crs);
        columns = (meta.columns ?? []).map((column) => column.name);
      },
    });
    for (;;) {
      let next;
      try {
        next = await features.next();
      } catch (error) {
        if (error instanceof LayerReadError) throw error;
        throw new LayerReadError(path, `not a readable FlatGeobuf file: ${errorMessage(error)}`, header === null ? undefined : { index: index + 1 });
      }
      if (next.done) return;
      index++;
      const position = { index };
      const feature = next.value as { geometry: unknown; properties?: Record<string, unknown> };
      const properties: Record<string, unknown> = {};
      for (const column of columns) properties[column] = feature.properties?.[column] ?? null;
      yield { position, geometry: checkedGeometry(path, feature.geometry, position), properties, toWgs84, crsLabel: crs.label };
    }
  } finally {
    file.destroy();
  }
}

export function flatGeobufCrs(path: string, header: HeaderMeta): Crs {
  const envelope = header.envelope === null ? null : ([...header.envelope.slice(0, 4)] as [number, number, number, number]);
  try {
    const meta = header.crs;
    if (meta === null) return assumedLonLat(envelope, 'the header has no CRS');
    if ((meta.org === null || meta.org.toUpperCase() === 'EPSG') && meta.code === 4326) return WGS84;
    if ((meta.org === null || meta.org.toUpperCase() === 'EPSG') && meta.code > 0) {
      try {
        return crsFromEpsg(meta.code);
      } catch (error) {
        if (meta.wkt === null) throw error;
      }
    }
    if (meta.wkt !== null) {
      const crs = crsFromWkt(meta.wkt);
      return isWgs84(crs) ? WGS84 : crs;
    }
    return assumedLonLat(envelope, 'the header names no usable CRS');
  } catch (error) {
    if (error instanceof CrsError) throw new LayerReadError(path, error.message);
    throw error;
  }
}
