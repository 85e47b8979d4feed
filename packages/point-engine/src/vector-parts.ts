// Everything a vector layer index computes from its shapes, as flat typed arrays: the tree's
// entries (each feature, or the pieces of a long line as ranges of its vertices), their boxes, the
// R-tree's buffer and the bucket grid. Computing them is the CPU of loading a layer (a
// 1,000,000-vertex line layer: about half a second, and as much again in garbage collection);
// making an index from them is a few allocations. So they can be computed in one thread and the
// index made in another: posted between threads, the shared buffers are shared, not copied.

import Flatbush from 'flatbush';
import { rulerAt } from './geodesy.js';
import { BucketGrid, type BucketGridParts } from './bucket-grid.js';
import { KIND_CODE, type VectorLayerSnapshot } from './layer-snapshot.js';

export interface VectorLayerParts {
  /** The features: packed shapes and declared properties. */
  readonly shapes: VectorLayerSnapshot;
  readonly entries: EntryParts;
  /** Flatbush's buffer over the entry boxes (null for a layer without features). */
  readonly tree: SharedArrayBuffer | null;
  readonly buckets: BucketGridParts | null;
  /** A first nearest-search radius that usually holds a feature: the layer's mean spacing. */
  readonly spacingM: number;
}

export interface EntryParts {
  readonly count: number;
  /** Per entry: its feature; null when every entry is its whole feature (entry i is feature i). */
  readonly feature: Uint32Array | null;
  /**
   * With `feature`: per entry that is a piece of a line (its feature is cut, `isCut`), its first
   * and last vertex in the shapes' `coords` (in pairs); unused for an entry that is its whole feature.
   */
  readonly firstVertex: Uint32Array | null;
  readonly lastVertex: Uint32Array | null;
  /** minLon, minLat, maxLon, maxLat per entry. */
  readonly boxes: Float64Array;
  /** Per entry: 1 for a single point, whose distance is its box's. */
  readonly singlePoint: Uint8Array;
}

/**
 * Lines are indexed in pieces of at most this many segments, each with its own box: a long line
 * (a transmission line, a river, a highway) has a box covering much of the market, so whole, it
 * was measured vertex by vertex from nearly every query point (measured: lines were two thirds of
 * the engine's time on the demo layers). Polygons stay whole: containment needs every ring.
 */
export const LINE_PIECE_SEGMENTS = 8;

/** Nodes of 8 (not Flatbush's default 16): fewer boxes tested per level; measured 5-10 % faster here. */
export const TREE_NODE_SIZE = 8;

function sharedArray<T extends Float64Array | Uint32Array | Uint8Array>(Type: { new (buffer: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number }, length: number): T {
  return new Type(new SharedArrayBuffer(Math.max(1, length) * Type.BYTES_PER_ELEMENT));
}

/** The parts of an index over the shapes of `snapshot`. */
export function deriveParts(snapshot: VectorLayerSnapshot): VectorLayerParts {
  const entries = entryParts(snapshot);
  const buckets = BucketGrid.build(entries.boxes, entries.count);
  const n = snapshot.shapeKinds.length;
  if (n === 0) return { shapes: snapshot, entries, tree: null, buckets: buckets?.parts ?? null, spacingM: 0 };
  const tree = new Flatbush(entries.count, TREE_NODE_SIZE, Float64Array, SharedArrayBuffer);
  const { boxes } = entries;
  let [minLon, minLat, maxLon, maxLat] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < entries.count * 4; i += 4) {
    tree.add(boxes[i], boxes[i + 1], boxes[i + 2], boxes[i + 3]);
    minLon = Math.min(minLon, boxes[i]);
    minLat = Math.min(minLat, boxes[i + 1]);
    maxLon = Math.max(maxLon, boxes[i + 2]);
    maxLat = Math.max(maxLat, boxes[i + 3]);
  }
  tree.finish();
  const ruler = rulerAt((minLat + maxLat) / 2);
  const areaM2 = Math.max(1, (maxLon - minLon) * ruler.kx * (maxLat - minLat) * ruler.ky);
  return { shapes: snapshot, entries, tree: tree.data as SharedArrayBuffer, buckets: buckets?.parts ?? null, spacingM: Math.max(100, Math.sqrt(areaM2 / n)) };
}

/** Whether a shape is indexed in pieces: a line of more vertices than one piece holds. */
export function isCut(snapshot: VectorLayerSnapshot, shape: number): boolean {
  return snapshot.shapeKinds[shape] === KIND_CODE.line && snapshot.coordStarts[shape + 1] - snapshot.coordStarts[shape] > LINE_PIECE_SEGMENTS + 1;
}

/**
 * Calls `piece(first, last)` for each piece of a line's paths (global vertex positions, the pieces
 * sharing their end vertices): at most LINE_PIECE_SEGMENTS segments each; a path of one vertex is
 * one piece of it, an empty path none.
 */
function forEachPiece(snapshot: VectorLayerSnapshot, shape: number, piece: (first: number, last: number) => void): void {
  const base = snapshot.coordStarts[shape];
  const { paths, pathStarts } = snapshot;
  for (let p = pathStarts[shape]; p < pathStarts[shape + 1] - 1; p++) {
    const first = base + paths[p];
    const last = base + paths[p + 1] - 1;
    for (let start = first; start < last || (start === first && start === last); start += LINE_PIECE_SEGMENTS) {
      const end = Math.min(start + LINE_PIECE_SEGMENTS, last);
      piece(start, end);
      if (end === last) break;
    }
  }
}

function entryParts(snapshot: VectorLayerSnapshot): EntryParts {
  const n = snapshot.shapeKinds.length;
  const { coords, coordStarts, shapeKinds } = snapshot;
  let count = 0;
  for (let shape = 0; shape < n; shape++) {
    if (isCut(snapshot, shape)) forEachPiece(snapshot, shape, () => count++);
    else count++;
  }
  const singlePoint = sharedArray(Uint8Array, count);
  if (count === n) {
    // Every entry is its whole feature: the entries' boxes are the features' (one array, not a copy).
    const boxes = snapshot.boxes;
    for (let shape = 0; shape < n; shape++) singlePoint[shape] = shapeKinds[shape] === KIND_CODE.point && coordStarts[shape + 1] - coordStarts[shape] === 1 ? 1 : 0;
    return { count, feature: null, firstVertex: null, lastVertex: null, boxes, singlePoint };
  }
  const boxes = sharedArray(Float64Array, count * 4);
  const feature = sharedArray(Uint32Array, count);
  const firstVertex = sharedArray(Uint32Array, count);
  const lastVertex = sharedArray(Uint32Array, count);
  let entry = 0;
  for (let shape = 0; shape < n; shape++) {
    if (!isCut(snapshot, shape)) {
      feature[entry] = shape;
      boxes.set(snapshot.boxes.subarray(shape * 4, shape * 4 + 4), entry * 4);
      singlePoint[entry] = shapeKinds[shape] === KIND_CODE.point && coordStarts[shape + 1] - coordStarts[shape] === 1 ? 1 : 0;
      entry++;
      continue;
    }
    forEachPiece(snapshot, shape, (first, last) => {
      feature[entry] = shape;
      firstVertex[entry] = first;
      lastVertex[entry] = last;
      const at = entry++ * 4;
      let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
      for (let v = first; v <= last; v++) {
        const x = coords[v * 2];
        const y = coords[v * 2 + 1];
        if (x < x0) x0 = x;
        if (y < y0) y0 = y;
        if (x > x1) x1 = x;
        if (y > y1) y1 = y;
      }
      boxes[at] = x0;
      boxes[at + 1] = y0;
      boxes[at + 2] = x1;
      boxes[at + 3] = y1;
    });
  }
  return { count, feature, firstVertex, lastVertex, boxes, singlePoint };
}
