// How a layer version's content is stored in catalog.layer_chunks: vector features as binary
// (binary-features.ts: float64 coordinates, the properties the source declares, already renamed by
// --map, as JSON), or, for versions stored before that and the rare geometry the layout does not
// take, a JSON array of [geometry, properties]: both are read, told apart by their first bytes. A
// grid's cells as little-endian float32: a square block of a tile per chunk (import-grid.ts), or,
// for a grid stored whole, row-major slices. Compression is left to PostgreSQL's TOAST (lz4
// where available).

import type { FeatureInput, Geometry } from '@landscreen/point-engine';
import { decodeBinaryFeatures, encodeBinaryFeatures, isBinaryFeatures } from './binary-features.js';

/**
 * A chunk is cut at this many features or this many vertices, whichever comes first: a few
 * hundred kilobytes of JSON, one insert each. Small enough that an embedded (PGlite) insert, which
 * runs on the thread answering requests, stays short; large enough that the statements are few.
 */
export const FEATURES_PER_CHUNK = 500;
export const VERTICES_PER_CHUNK = 10_000;
/** Grid cells per chunk of a grid stored whole (4 MB, row-major slices). */
export const CELLS_PER_CHUNK = 1 << 20;

type StoredFeature = [Geometry, Record<string, unknown>];

export function encodeFeatures(features: readonly StoredFeature[]): Buffer {
  return encodeBinaryFeatures(features) ?? encodeJsonFeatures(features);
}

/** The first layout, kept for the geometries binary-features.ts does not take. */
export function encodeJsonFeatures(features: readonly StoredFeature[]): Buffer {
  return Buffer.from(JSON.stringify(features));
}

export function decodeFeatures(data: Uint8Array): FeatureInput[] {
  if (isBinaryFeatures(data)) return decodeBinaryFeatures(data);
  const stored = JSON.parse(Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('utf8')) as StoredFeature[];
  return stored.map(([geometry, properties]) => ({ geometry, properties }));
}

export function encodeCells(values: Float32Array, from: number, to: number): Buffer {
  const slice = values.subarray(from, to);
  return Buffer.from(slice.buffer, slice.byteOffset, slice.byteLength);
}

/** A stored block's cells, on a SharedArrayBuffer (prepare's workers share it rather than copy it). */
export function decodeBlock(data: Uint8Array): Float32Array {
  const cells = new Float32Array(new SharedArrayBuffer(data.byteLength));
  new Uint8Array(cells.buffer).set(data);
  return cells;
}

/** Copies a stored slice into `target` at `offset` (cells); answers the next offset. */
export function decodeCellsInto(target: Float32Array, offset: number, data: Uint8Array): number {
  const bytes = new Uint8Array(target.buffer, target.byteOffset + offset * 4, data.byteLength);
  bytes.set(data);
  return offset + data.byteLength / 4;
}
