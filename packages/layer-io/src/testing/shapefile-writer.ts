// Test helper: the bytes of a Shapefile (.shp, .shx, .dbf) as the ESRI technical description
// lays them out, for points, polylines and polygons with character and numeric attributes. Just
// enough of the format to write fixtures in any CRS; coordinates are written as given (a
// polygon's outer rings must already be clockwise, as the format wants).

export type ShapeType = 'point' | 'polyline' | 'polygon';

export interface DbfField {
  name: string;
  type: 'C' | 'N' | 'D';
  length: number;
  decimals?: number;
}

export interface ShapeRecord {
  /** A point [x, y], or the parts of a polyline/polygon; null writes a null shape. */
  shape: number[] | number[][][] | null;
  attributes: Record<string, string | number | null>;
}

export interface ShapefileBytes {
  shp: Buffer;
  shx: Buffer;
  dbf: Buffer;
}

const SHAPE_CODES: Record<ShapeType, number> = { point: 1, polyline: 3, polygon: 5 };
const HEADER_BYTES = 100;

export function writeShapefile(type: ShapeType, fields: DbfField[], records: ShapeRecord[]): ShapefileBytes {
  const contents = records.map((record) => shapeContent(type, record.shape));
  const box = boundingBox(records.map((r) => r.shape));
  const shpLength = HEADER_BYTES + contents.reduce((sum, c) => sum + 8 + c.length, 0);
  const shp = Buffer.alloc(shpLength);
  const shx = Buffer.alloc(HEADER_BYTES + 8 * records.length);
  writeHeader(shp, SHAPE_CODES[type], shpLength, box);
  writeHeader(shx, SHAPE_CODES[type], shx.length, box);
  let offset = HEADER_BYTES;
  contents.forEach((content, i) => {
    shx.writeInt32BE(offset / 2, HEADER_BYTES + 8 * i);
    shx.writeInt32BE(content.length / 2, HEADER_BYTES + 8 * i + 4);
    shp.writeInt32BE(i + 1, offset);
    shp.writeInt32BE(content.length / 2, offset + 4);
    content.copy(shp, offset + 8);
    offset += 8 + content.length;
  });
  return { shp, shx, dbf: writeDbf(fields, records.map((r) => r.attributes)) };
}

/** The ring reversed when it runs counter-clockwise: Shapefile outer rings are clockwise. */
export function clockwise(ring: number[][]): number[][] {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[i][0] - ring[j][0]) * (ring[i][1] + ring[j][1]);
  return sum > 0 ? ring : [...ring].reverse();
}

function writeHeader(buffer: Buffer, shapeType: number, byteLength: number, box: number[]): void {
  buffer.writeInt32BE(9994, 0);
  buffer.writeInt32BE(byteLength / 2, 24);
  buffer.writeInt32LE(1000, 28);
  buffer.writeInt32LE(shapeType, 32);
  box.forEach((value, i) => buffer.writeDoubleLE(value, 36 + 8 * i));
}

function shapeContent(type: ShapeType, shape: ShapeRecord['shape']): Buffer {
  if (shape === null) return Buffer.alloc(4); // shape type 0: null shape
  if (type === 'point') {
    const content = Buffer.alloc(20);
    content.writeInt32LE(1, 0);
    content.writeDoubleLE((shape as number[])[0], 4);
    content.writeDoubleLE((shape as number[])[1], 12);
    return content;
  }
  const parts = shape as number[][][];
  const points = parts.flat();
  const content = Buffer.alloc(44 + 4 * parts.length + 16 * points.length);
  content.writeInt32LE(SHAPE_CODES[type], 0);
  boundingBox([shape]).forEach((value, i) => content.writeDoubleLE(value, 4 + 8 * i));
  content.writeInt32LE(parts.length, 36);
  content.writeInt32LE(points.length, 40);
  let start = 0;
  parts.forEach((part, i) => {
    content.writeInt32LE(start, 44 + 4 * i);
    start += part.length;
  });
  const base = 44 + 4 * parts.length;
  points.forEach(([x, y], i) => {
    content.writeDoubleLE(x, base + 16 * i);
    content.writeDoubleLE(y, base + 16 * i + 8);
  });
  return content;
}

function boundingBox(shapes: ShapeRecord['shape'][]): number[] {
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const shape of shapes) {
    if (shape === null) continue;
    const points = typeof shape[0] === 'number' ? [shape as number[]] : (shape as number[][][]).flat();
    for (const [x, y] of points) {
      box[0] = Math.min(box[0], x);
      box[1] = Math.min(box[1], y);
      box[2] = Math.max(box[2], x);
      box[3] = Math.max(box[3], y);
    }
  }
  return box[0] === Infinity ? [0, 0, 0, 0] : box;
}

function writeDbf(fields: DbfField[], rows: Record<string, string | number | null>[]): Buffer {
  const headerLength = 32 + 32 * fields.length + 1;
  const recordLength = 1 + fields.reduce((sum, f) => sum + f.length, 0);
  const dbf = Buffer.alloc(headerLength + recordLength * rows.length + 1, 0x20);
  dbf.fill(0, 0, headerLength);
  dbf.writeUInt8(0x03, 0);
  dbf.writeUInt8(124, 1); // 2024
  dbf.writeUInt8(1, 2);
  dbf.writeUInt8(1, 3);
  dbf.writeUInt32LE(rows.length, 4);
  dbf.writeUInt16LE(headerLength, 8);
  dbf.writeUInt16LE(recordLength, 10);
  fields.forEach((field, i) => {
    const at = 32 + 32 * i;
    dbf.write(field.name, at, 10, 'latin1');
    dbf.write(field.type, at + 11, 1, 'latin1');
    dbf.writeUInt8(field.length, at + 16);
    dbf.writeUInt8(field.decimals ?? 0, at + 17);
  });
  dbf.writeUInt8(0x0d, headerLength - 1);
  rows.forEach((row, r) => {
    let at = headerLength + recordLength * r + 1;
    for (const field of fields) {
      const value = row[field.name];
      const text = value === null || value === undefined ? '' : String(value);
      const bytes = Buffer.from(text, 'utf8').subarray(0, field.length);
      if (field.type === 'N') bytes.copy(dbf, at + field.length - bytes.length);
      else bytes.copy(dbf, at);
      at += field.length;
    }
  });
  dbf.writeUInt8(0x1a, dbf.length - 1);
  return dbf;
}
