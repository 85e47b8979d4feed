// What a stored parcel index becomes before a service can draw tiles and locate points with it,
// as typed arrays and bytes only: the box tree (Flatbush's packed data) and the rest of the point
// engine's index (its buckets), every vertex's world y, the keys' ascending order, and the keys
// and record fields packed. Computed in a worker thread (parcel-index-worker.ts) and handed over
// without a copy, so the service's event loop never parses the million keys or sorts them; the
// same function serves an index restored in-thread.

import { deriveParts, type VectorLayerParts, type VectorLayerSnapshot } from '@landscreen/point-engine';
import { worldYs } from '@landscreen/vector-tiles';
import { columnViews, packStringColumn, type PackedStringColumn } from './coded-strings.js';
import { packNumbers, packStrings, type PackedStrings, type ValueColumn } from './packed-columns.js';
import type { ParcelRecordColumns, StoredParcelIndex } from './stored-parcel-index.js';

/** The record fields: strings coded or packed (coded-strings.ts), numbers as float64 with NaN for null. */
export interface RestoredRecords {
  apn: PackedStringColumn;
  address: PackedStringColumn;
  owner_name: PackedStringColumn;
  zoning: PackedStringColumn;
  acres: Float64Array;
  lat: Float64Array;
  lon: Float64Array;
}

export interface RestoredParcelIndex {
  vintageId: string;
  shapes: VectorLayerSnapshot;
  singlePart: Uint8Array;
  /** Every vertex's web mercator world y (worldYs), for tiles. */
  worldY: Float64Array;
  /**
   * The point engine's index over the polygons, as parts (its box tree, buckets, spacing): its
   * tree, Flatbush's data over the parcels' boxes in position order, is also the one tiles search.
   */
  engine: VectorLayerParts;
  /** Positions in ascending parcel_key order (JavaScript's string order, as the ranking index's). */
  keyOrder: Uint32Array;
  keys: PackedStrings;
  records: RestoredRecords;
}

/** Positions ordered by their keys, ascending. */
export function keyOrderOf(keys: ValueColumn<string>): Uint32Array {
  const order = new Uint32Array(keys.length);
  const values = Array.from({ length: keys.length }, (_, i) => keys.at(i)!);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((a, b) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : 0));
}

export function restoredParts(stored: StoredParcelIndex): RestoredParcelIndex {
  const { records } = stored;
  return {
    vintageId: stored.vintageId,
    shapes: stored.shapes,
    singlePart: stored.singlePart,
    worldY: worldYs(stored.shapes.coords),
    engine: deriveParts(stored.shapes),
    keyOrder: keyOrderOf(stored.keys),
    keys: packStrings(stored.keys),
    records: packRecords(records),
  };
}

/** The record fields as a service holds them, from arrays. */
export function packRecords(records: ParcelRecordColumns): RestoredRecords {
  return {
    apn: packStringColumn(records.apn),
    address: packStringColumn(records.address),
    owner_name: packStringColumn(records.owner_name),
    zoning: packStringColumn(records.zoning),
    acres: packNumbers(records.acres),
    lat: packNumbers(records.lat),
    lon: packNumbers(records.lon),
  };
}

/** Every buffer the parts hold, once each: what a worker transfers. */
export function transferList(parts: RestoredParcelIndex): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>();
  // A SharedArrayBuffer is shared by posting it, never transferred.
  const add = (view: { buffer: ArrayBufferLike }) => view.buffer instanceof ArrayBuffer && buffers.add(view.buffer);
  const { shapes, records } = parts;
  for (const view of [shapes.shapeKinds, shapes.coordStarts, shapes.coords, shapes.pathStarts, shapes.paths, shapes.polygonStarts, shapes.polygons, shapes.boxes]) add(view);
  for (const view of [parts.singlePart, parts.worldY, parts.keyOrder, records.acres, records.lat, records.lon]) add(view);
  for (const view of columnViews({ form: 'packed', ...parts.keys })) add(view);
  for (const column of [records.apn, records.address, records.owner_name, records.zoning]) for (const view of columnViews(column)) add(view);
  if (parts.engine.buckets) for (const view of [parts.engine.buckets.cellStart, parts.engine.buckets.cellEntries]) add(view);
  return [...buffers];
}
