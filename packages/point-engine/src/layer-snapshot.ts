// A vector layer index as flat typed arrays on SharedArrayBuffers, to hand to worker threads:
// posted in workerData, the buffers are shared, not copied, and a worker rebuilds the index from
// them (its tree and buckets: well under a second for the largest demo layers) instead of
// reading the layer from PostgreSQL and parsing it again (10-40 s a worker, measured). Feature
// properties travel as plain arrays (structured clone: small next to the coordinates).

import type { SourceId } from '@landscreen/field-catalog';
import type { PropertyValue } from './coerce.js';
import type { PackedShape, ShapeKind } from './geometry.js';

export interface VectorLayerSnapshot {
  readonly kind: 'vector';
  readonly source: SourceId;
  readonly version: string;
  /** Per shape: 0 point, 1 line, 2 polygon. */
  readonly shapeKinds: Uint8Array;
  /** Per shape, its first coordinate pair in `coords`; then the total. */
  readonly coordStarts: Uint32Array;
  readonly coords: Float64Array;
  /** Per shape, its first entry in `paths`; then the total. */
  readonly pathStarts: Uint32Array;
  /** Each shape's `paths` (positions relative to the shape), one after another. */
  readonly paths: Uint32Array;
  readonly polygonStarts: Uint32Array;
  readonly polygons: Uint32Array;
  /** minLon, minLat, maxLon, maxLat per shape. */
  readonly boxes: Float64Array;
  readonly columns: readonly (readonly [string, PropertyValue[]])[];
}

const KINDS: readonly ShapeKind[] = ['point', 'line', 'polygon'];
/** `shapeKinds`' codes. */
export const KIND_CODE = { point: 0, line: 1, polygon: 2 } as const satisfies Record<ShapeKind, number>;

function shared<T extends Float64Array | Uint32Array | Uint8Array>(Type: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number }, length: number): T {
  return new Type(new SharedArrayBuffer(Math.max(1, length) * Type.BYTES_PER_ELEMENT));
}

export function snapshotShapes(source: SourceId, version: string, shapes: readonly PackedShape[], columns: ReadonlyMap<string, PropertyValue[]>): VectorLayerSnapshot {
  const n = shapes.length;
  let coordCount = 0;
  let pathCount = 0;
  let polygonCount = 0;
  for (const shape of shapes) {
    coordCount += shape.coords.length;
    pathCount += shape.paths.length;
    polygonCount += shape.polygons.length;
  }
  const snapshot = {
    kind: 'vector' as const,
    source,
    version,
    shapeKinds: shared(Uint8Array, n),
    coordStarts: shared(Uint32Array, n + 1),
    coords: shared(Float64Array, coordCount),
    pathStarts: shared(Uint32Array, n + 1),
    paths: shared(Uint32Array, pathCount),
    polygonStarts: shared(Uint32Array, n + 1),
    polygons: shared(Uint32Array, polygonCount),
    boxes: shared(Float64Array, n * 4),
    columns: [...columns],
  };
  let [coordAt, pathAt, polygonAt] = [0, 0, 0];
  shapes.forEach((shape, i) => {
    snapshot.shapeKinds[i] = KIND_CODE[shape.kind];
    snapshot.coordStarts[i] = coordAt / 2;
    snapshot.coords.set(shape.coords, coordAt);
    coordAt += shape.coords.length;
    snapshot.pathStarts[i] = pathAt;
    snapshot.paths.set(shape.paths, pathAt);
    pathAt += shape.paths.length;
    snapshot.polygonStarts[i] = polygonAt;
    snapshot.polygons.set(shape.polygons, polygonAt);
    polygonAt += shape.polygons.length;
    snapshot.boxes.set(shape.bbox, i * 4);
  });
  snapshot.coordStarts[n] = coordAt / 2;
  snapshot.pathStarts[n] = pathAt;
  snapshot.polygonStarts[n] = polygonAt;
  return snapshot;
}

/** Shape `i` of a snapshot, as views into its buffers (nothing copied). */
export function restoreShape(snapshot: VectorLayerSnapshot, i: number): PackedShape {
  const { shapeKinds, coordStarts, coords, pathStarts, paths, polygonStarts, polygons, boxes } = snapshot;
  return {
    kind: KINDS[shapeKinds[i]],
    coords: coords.subarray(coordStarts[i] * 2, coordStarts[i + 1] * 2),
    paths: paths.subarray(pathStarts[i], pathStarts[i + 1]),
    polygons: polygons.subarray(polygonStarts[i], polygonStarts[i + 1]),
    bbox: [boxes[i * 4], boxes[i * 4 + 1], boxes[i * 4 + 2], boxes[i * 4 + 3]],
  };
}
