// A chunk of vector features as binary: the coordinates as float64, the geometries' shapes as
// uint32 counts, the properties as one JSON array. Writing a coordinate as its shortest decimal
// text and parsing it back was most of an import's and a layer load's CPU; a float64 is copied.
//
//   bytes  0..3   "LSB1"
//          4..19  uint32 ×4: features, shape counts, coordinates, property bytes
//          20..   uint32 shape counts, padded to 8 bytes; float64 coordinates; UTF-8 properties
//
// Per feature the shape counts are: the kind (GeoJSON type index, + 8 for three-dimensional
// positions), then the type's nesting of counts (points of a line, rings of a polygon and the
// points of each, …). Little-endian, as every platform Node runs on.

import type { FeatureInput, Geometry } from '@landscreen/point-engine';

type StoredFeature = readonly [Geometry, Record<string, unknown>];
type Position = number[];

const MAGIC = [0x4c, 0x53, 0x42, 0x31];
const HEADER_BYTES = 20;
const TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'] as const;
const TYPE_INDEX = new Map<string, number>(TYPES.map((type, i) => [type, i]));
const THREE_D = 8;

export function isBinaryFeatures(data: Uint8Array): boolean {
  return data.length >= HEADER_BYTES && MAGIC.every((byte, i) => data[i] === byte);
}

/**
 * Null when a geometry does not fit the layout (positions of mixed dimensions, or of four): the
 * caller stores that chunk as JSON, which any position survives.
 */
export function encodeBinaryFeatures(features: readonly StoredFeature[]): Buffer | null {
  let shapes = 0;
  let coordinates = 0;
  for (const [geometry] of features) {
    const counted = countGeometry(geometry);
    if (counted === null) return null;
    shapes += counted.shapes;
    coordinates += counted.coordinates;
  }
  const properties = JSON.stringify(features.map(([, props]) => props));
  const propertyBytes = Buffer.byteLength(properties);
  const coordinatesAt = align8(HEADER_BYTES + shapes * 4);
  const propertiesAt = coordinatesAt + coordinates * 8;
  const buffer = Buffer.allocUnsafeSlow(propertiesAt + propertyBytes);
  buffer.set(MAGIC, 0);
  buffer.writeUInt32LE(features.length, 4);
  buffer.writeUInt32LE(shapes, 8);
  buffer.writeUInt32LE(coordinates, 12);
  buffer.writeUInt32LE(propertyBytes, 16);
  buffer.fill(0, HEADER_BYTES + shapes * 4, coordinatesAt);
  const shapeArray = new Uint32Array(buffer.buffer, buffer.byteOffset + HEADER_BYTES, shapes);
  const coordinateArray = new Float64Array(buffer.buffer, buffer.byteOffset + coordinatesAt, coordinates);
  const writer = { shapes: shapeArray, s: 0, coordinates: coordinateArray, c: 0 };
  for (const [geometry] of features) writeGeometry(writer, geometry);
  buffer.write(properties, propertiesAt, 'utf8');
  return buffer;
}

export function decodeBinaryFeatures(data: Uint8Array): FeatureInput[] {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const count = view.getUint32(4, true);
  const shapes = view.getUint32(8, true);
  const coordinates = view.getUint32(12, true);
  const propertyBytes = view.getUint32(16, true);
  const coordinatesAt = align8(HEADER_BYTES + shapes * 4);
  const propertiesAt = coordinatesAt + coordinates * 8;
  // Typed views need aligned offsets; a buffer from the database may sit anywhere in its pool.
  const aligned = data.byteOffset % 8 === 0 ? data : new Uint8Array(data);
  const reader = {
    shapes: new Uint32Array(aligned.buffer, aligned.byteOffset + HEADER_BYTES, shapes),
    s: 0,
    coordinates: new Float64Array(aligned.buffer, aligned.byteOffset + coordinatesAt, coordinates),
    c: 0,
  };
  const text = Buffer.from(aligned.buffer, aligned.byteOffset + propertiesAt, propertyBytes).toString('utf8');
  const properties = JSON.parse(text) as Record<string, unknown>[];
  const features = new Array<FeatureInput>(count);
  for (let i = 0; i < count; i++) features[i] = { geometry: readGeometry(reader), properties: properties[i] };
  return features;
}

function align8(offset: number): number {
  return (offset + 7) & ~7;
}

/** Shape counts and coordinates a geometry takes; null if its positions are not all 2D or all 3D. */
function countGeometry(geometry: Geometry): { shapes: number; coordinates: number } | null {
  if (!TYPE_INDEX.has(geometry.type)) return null;
  const dimension = dimensionOf(geometry);
  if (dimension === 0) return null;
  const c = geometry.coordinates as unknown;
  let shapes = 1;
  let positions = 0;
  switch (geometry.type) {
    case 'Point':
      positions = 1;
      break;
    case 'MultiPoint':
    case 'LineString':
      shapes++;
      positions = uniformPoints(c as Position[], dimension);
      break;
    case 'MultiLineString':
    case 'Polygon':
      shapes++;
      for (const part of c as Position[][]) {
        shapes++;
        positions += uniformPoints(part, dimension);
      }
      break;
    case 'MultiPolygon':
      shapes++;
      for (const polygon of c as Position[][][]) {
        shapes++;
        for (const ring of polygon) {
          shapes++;
          positions += uniformPoints(ring, dimension);
        }
      }
      break;
  }
  return positions < 0 || Number.isNaN(positions) ? null : { shapes, coordinates: positions * dimension };
}

/** The points' count, or NaN if one has another dimension (NaN stays NaN through the sums). */
function uniformPoints(points: Position[], dimension: number): number {
  for (let i = 0; i < points.length; i++) if (points[i].length !== dimension) return NaN;
  return points.length;
}

/** 2 or 3 from the first position; 0 for none, or another count. */
function dimensionOf(geometry: Geometry): number {
  let item: unknown = geometry.coordinates;
  while (Array.isArray(item) && Array.isArray(item[0])) item = item[0];
  const length = Array.isArray(item) ? item.length : 0;
  return length === 2 || length === 3 ? length : 0;
}

interface Cursor {
  shapes: Uint32Array;
  s: number;
  coordinates: Float64Array;
  c: number;
}

function writeGeometry(w: Cursor, geometry: Geometry): void {
  const dimension = dimensionOf(geometry);
  w.shapes[w.s++] = TYPE_INDEX.get(geometry.type)! + (dimension === 3 ? THREE_D : 0);
  const c = geometry.coordinates as unknown;
  switch (geometry.type) {
    case 'Point':
      writePoints(w, [c as Position], dimension);
      break;
    case 'MultiPoint':
    case 'LineString':
      w.shapes[w.s++] = (c as Position[]).length;
      writePoints(w, c as Position[], dimension);
      break;
    case 'MultiLineString':
    case 'Polygon':
      writeLines(w, c as Position[][], dimension);
      break;
    case 'MultiPolygon': {
      const polygons = c as Position[][][];
      w.shapes[w.s++] = polygons.length;
      for (const polygon of polygons) writeLines(w, polygon, dimension);
      break;
    }
  }
}

function writeLines(w: Cursor, lines: Position[][], dimension: number): void {
  w.shapes[w.s++] = lines.length;
  for (const line of lines) {
    w.shapes[w.s++] = line.length;
    writePoints(w, line, dimension);
  }
}

function writePoints(w: Cursor, points: Position[], dimension: number): void {
  const out = w.coordinates;
  let at = w.c;
  if (dimension === 2) {
    for (let i = 0; i < points.length; i++) {
      const p = points[i];
      out[at] = p[0];
      out[at + 1] = p[1];
      at += 2;
    }
  } else {
    for (let i = 0; i < points.length; i++) {
      const p = points[i];
      out[at] = p[0];
      out[at + 1] = p[1];
      out[at + 2] = p[2];
      at += 3;
    }
  }
  w.c = at;
}

function readGeometry(r: Cursor): Geometry {
  const kind = r.shapes[r.s++];
  const threeD = kind >= THREE_D;
  const type = TYPES[kind & (THREE_D - 1)];
  const point = (): Position => {
    const c = r.coordinates;
    const at = r.c;
    r.c += threeD ? 3 : 2;
    return threeD ? [c[at], c[at + 1], c[at + 2]] : [c[at], c[at + 1]];
  };
  const line = (): Position[] => {
    const n = r.shapes[r.s++];
    const points = new Array<Position>(n);
    for (let i = 0; i < n; i++) points[i] = point();
    return points;
  };
  const lines = (): Position[][] => {
    const n = r.shapes[r.s++];
    const parts = new Array<Position[]>(n);
    for (let i = 0; i < n; i++) parts[i] = line();
    return parts;
  };
  switch (type) {
    case 'Point':
      return { type, coordinates: point() } as Geometry;
    case 'MultiPoint':
    case 'LineString':
      return { type, coordinates: line() } as Geometry;
    case 'MultiLineString':
    case 'Polygon':
      return { type, coordinates: lines() } as Geometry;
    case 'MultiPolygon': {
      const n = r.shapes[r.s++];
      const polygons = new Array<Position[][]>(n);
      for (let i = 0; i < n; i++) polygons[i] = lines();
      return { type, coordinates: polygons } as Geometry;
    }
    default:
      throw new Error(`a binary feature chunk holds an unknown geometry kind ${kind}`);
  }
}
