// Shapefiles, plain or zipped, through the `shapefile` package's streaming reader (a record of
// .shp and .dbf at a time). The CRS comes from the .prj; without one, coordinates are taken for
// longitude/latitude only when the header's bounding box is plausibly that, and the file is
// refused otherwise: guessing a projection would put features on the wrong continent.

import { Transform, type Readable } from 'node:stream';
import { GeometryError, validateGeometry, type BBox, type GeoJSONGeometry } from '@landscreen/parcel-io';
import * as shapefile from 'shapefile';
import { WGS84, crsFromWkt, transformToWgs84, type Crs } from '../crs/crs.js';
import { CrsError, LayerReadError, errorMessage } from '../errors.js';
import type { ImportLimits } from '../limits/import-limits.js';
import type { ByteCounter, FormatReader, RawFeature } from './raw-feature.js';
import { openShapefileParts, type ShapefileParts } from './shapefile-parts.js';

export function readShapefile(path: string, limits: ImportLimits): FormatReader {
  const bytes: ByteCounter = { bytesRead: 0, totalBytes: 0 };
  return { features: features(path, bytes, limits), bytes, hasSchema: true };
}

async function* features(path: string, bytes: ByteCounter, limits: ImportLimits): AsyncGenerator<RawFeature> {
  const parts = await openShapefileParts(path, limits);
  const counters: Readable[] = [];
  const dbfHeader: DbfHeader = { bytes: Buffer.alloc(0) };
  try {
    bytes.totalBytes = parts.totalBytes;
    const source = await open(path, parts, bytes, counters, dbfHeader);
    const crs = crsOf(path, parts.prj, source.bbox as BBox);
    const toWgs84 = transformToWgs84(crs);
    for (let record = 1; ; record++) {
      const position = { index: record, record };
      let result;
      try {
        result = await source.read();
      } catch (error) {
        throw new LayerReadError(path, `unreadable record (truncated or corrupt file?): ${errorMessage(error)}`, position);
      }
      if (result.done) {
        checkRecordCount(path, record - 1, dbfHeader);
        return;
      }
      const { geometry, properties } = result.value as { geometry: unknown; properties: Record<string, unknown> | undefined };
      if (properties === undefined) throw new LayerReadError(path, 'the .dbf has fewer records than the .shp', position);
      yield { position, geometry: checked(path, geometry, position), properties: plain(properties), toWgs84, crsLabel: crs.label };
    }
  } finally {
    // The counting streams end quietly first: the package listens to them, and an error now
    // (a file closed under them) would reach nobody.
    for (const counter of counters) counter.destroy();
    parts.close();
  }
}

async function open(path: string, parts: ShapefileParts, bytes: ByteCounter, counters: Readable[], dbfHeader: DbfHeader) {
  try {
    const encoding = encodingOf(path, parts.cpg);
    const shp = counted(parts.shp, bytes);
    const dbf = parts.dbf === null ? undefined : counted(parts.dbf, bytes, dbfHeader);
    counters.push(shp, ...(dbf === undefined ? [] : [dbf]));
    return await shapefile.open(shp, dbf, { encoding });
  } catch (error) {
    if (error instanceof LayerReadError) throw error;
    throw new LayerReadError(path, `not a readable Shapefile: ${errorMessage(error)}`);
  }
}

function crsOf(path: string, prj: string | null, bbox: BBox): Crs {
  if (prj !== null) {
    try {
      return crsFromWkt(prj);
    } catch (error) {
      if (error instanceof CrsError) throw new LayerReadError(path, `.prj: ${error.message}`);
      throw error;
    }
  }
  const [minX, minY, maxX, maxY] = bbox;
  if (minX >= -180 && maxX <= 180 && minY >= -90 && maxY <= 90) return { ...WGS84, label: 'EPSG:4326 (assumed: no .prj)' };
  throw new LayerReadError(
    path,
    `has no .prj and its coordinates (x ${minX}…${maxX}, y ${minY}…${maxY}) are not longitude/latitude, so its CRS cannot be known; ` +
      'add the .prj that came with it',
  );
}

function checked(path: string, geometry: unknown, position: RawFeature['position']): GeoJSONGeometry | null {
  try {
    return validateGeometry(geometry, { lonLatRanges: false });
  } catch (error) {
    if (error instanceof GeometryError) throw new LayerReadError(path, `geometry: ${error.message}`, position);
    throw error;
  }
}

/** The .dbf's Date fields (local midnight, as the package builds them) as plain YYYY-MM-DD text. */
function plain(properties: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(properties)) {
    if (value instanceof Date) {
      properties[key] = Number.isNaN(value.getTime())
        ? null
        : `${value.getFullYear()}-${pad(value.getMonth() + 1)}-${pad(value.getDate())}`;
    }
  }
  return properties;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

/** A .cpg names the .dbf's encoding ("UTF-8", or a Windows code page number such as "1252"). */
function encodingOf(path: string, cpg: string | null): string | undefined {
  const name = cpg?.trim();
  if (name === undefined || name === '') return undefined;
  const encoding = /^\d+$/.test(name) ? `windows-${name}` : name;
  try {
    new TextDecoder(encoding);
  } catch {
    throw new LayerReadError(path, `the .cpg names an encoding this reader does not know: ${JSON.stringify(name)}`);
  }
  return encoding;
}

/** The first bytes of the .dbf, kept as they flow by: its header says how many records it holds. */
interface DbfHeader {
  bytes: Buffer;
}

const DBF_HEADER_BYTES = 8;

/**
 * A .dbf with more records than the .shp has shapes is refused: the package stops at the last
 * shape and would drop the rest silently, and attributes paired by position are then suspect.
 * (Fewer records is refused as it is met.)
 */
function checkRecordCount(path: string, shapes: number, header: DbfHeader): void {
  if (header.bytes.length < DBF_HEADER_BYTES) return;
  const records = header.bytes.readUInt32LE(4);
  if (records !== shapes) {
    throw new LayerReadError(
      path,
      `the .dbf holds ${records.toLocaleString('en-US')} records but the .shp ${shapes.toLocaleString('en-US')} shapes; ` +
        'the two files do not belong together (take both from the same download)',
    );
  }
}

/** The stream as it flows on, counting its bytes; a read error travels on to the reader. */
function counted(stream: Readable, bytes: ByteCounter, header?: DbfHeader): Readable {
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (header !== undefined && header.bytes.length < DBF_HEADER_BYTES) {
        header.bytes = Buffer.concat([header.bytes, chunk.subarray(0, DBF_HEADER_BYTES - header.bytes.length)]);
      }
      bytes.bytesRead += chunk.length;
      done(null, chunk);
    },
  });
  stream.on('error', (error) => counter.destroy(error));
  return stream.pipe(counter);
}
