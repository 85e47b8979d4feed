// The parcels of one vintage, for map tiles and for "which parcel is at this point": their
// polygons in flat arrays (the point engine's snapshot layout) with a box tree over them, which
// tiles search, and the engine's vector index over the same arrays (exact containment, nearest
// boundaries, areas), which locating asks; keys and record fields are kept beside them by
// position. Vintages are immutable, so an index is built once and never goes stale.

import Flatbush from 'flatbush';
import type { LayerSource, SourceId } from '@landscreen/field-catalog';
import { rulerAt, VectorLayerIndex, type PackedShape, type PolygonalGeometry, type VectorLayerSnapshot } from '@landscreen/point-engine';
import { worldYs } from '@landscreen/vector-tiles';
import { ByteCount } from '../memory/sizes.js';
import { NullableNumbers, NullableStrings, packStrings, type ValueColumn } from './packed-columns.js';
import { CodedStrings, stringColumn } from './coded-strings.js';
import { heldBuffers } from './held-buffers.js';
import { keyOrderOf, packRecords, restoredParts, type RestoredParcelIndex, type RestoredRecords } from './restored-parcel-index.js';
import { emptyRecordColumns, RECORD_FIELDS, type ParcelRecordColumns, type StoredParcelIndex } from './stored-parcel-index.js';

/** What a parcel row contributes to the index (geometry: a GeoJSON Polygon or MultiPolygon). */
export interface IndexedParcelInput {
  parcel_key: string;
  geometry: PolygonalGeometry;
  apn: string | null;
  address: string | null;
  owner_name: string | null;
  zoning: string | null;
  acres: number | null;
  lat: number | null;
  lon: number | null;
}

export interface ParcelHit {
  /** The parcel's position in the index. */
  id: number;
  match_type: 'exact_intersect' | 'nearest_within_radius';
  /** Geodesic meters to the parcel's boundary; 0 inside or on it. */
  distance_m: number;
}

/** The record fields read one value at a time from their packed forms. */
function recordReader(records: RestoredRecords): ParcelRecordReader {
  return {
    apn: stringColumn(records.apn),
    address: stringColumn(records.address),
    owner_name: stringColumn(records.owner_name),
    zoning: stringColumn(records.zoning),
    acres: new NullableNumbers(records.acres),
    lat: new NullableNumbers(records.lat),
    lon: new NullableNumbers(records.lon),
  };
}

/** The parcels are a polygon layer of the engine's (no declared properties: the record is kept here). */
const PARCELS: LayerSource = { id: 'parcel_vendor' as SourceId, feeds: 'layer', geometry: 'polygons', properties: [] };

/** The parcels a radius search found (the shape VectorLayerIndex.within fills), reused between searches. */
class Hits {
  count = 0;
  ids: number[] = [];
  distances: number[] = [];

  reset(): void {
    this.count = 0;
  }

  push(id: number, distance: number): void {
    this.ids[this.count] = id;
    this.distances[this.count] = distance;
    this.count++;
  }
}

/** The record fields as a service reads them, one value at a time. */
export type ParcelRecordReader = { [F in keyof ParcelRecordColumns]: ValueColumn<NonNullable<ParcelRecordColumns[F][number]>> };

interface ParcelIndexParts {
  vintageId: string;
  flat: VectorLayerSnapshot;
  keys: ValueColumn<string>;
  records: ParcelRecordReader;
  singlePart: Uint8Array;
  worldY: Float64Array;
  tree: Flatbush | null;
  keyOrder: Uint32Array;
  /** The point engine's index over the same polygons (exact containment, nearest boundaries, areas). */
  layer: VectorLayerIndex;
}

export class ParcelIndex {
  private readonly hits = new Hits();
  readonly vintageId: string;
  /** The polygons in flat arrays (the engine's snapshot layout), which tiles read by position. */
  readonly flat: VectorLayerSnapshot;
  readonly keys: ValueColumn<string>;
  /**
   * Every vertex's web mercator world y, for map tiles (world-polygon.ts): the costly half of the
   * projection, kept; x is made as a tile draws the parcel.
   */
  readonly worldY: Float64Array;
  /** Positions in ascending parcel_key order (tile-views.ts maps them onto ranking rows in one pass). */
  readonly keyOrder: Uint32Array;
  private readonly records: ParcelRecordReader;
  private readonly singlePart: Uint8Array;
  /** The engine's own tree over the parcels' boxes (its buffer, not a copy): a tile's search. */
  private readonly tree: Flatbush | null;
  /** The point engine's index over the polygons, for exact locating and areas. */
  private readonly layer: VectorLayerIndex;
  /** approximateBytes() (computed once: it samples the columns). */
  private heldBytes: number | undefined;

  private constructor(parts: ParcelIndexParts) {
    this.vintageId = parts.vintageId;
    this.flat = parts.flat;
    this.keys = parts.keys;
    this.records = parts.records;
    this.singlePart = parts.singlePart;
    this.worldY = parts.worldY;
    this.tree = parts.tree;
    this.keyOrder = parts.keyOrder;
    this.layer = parts.layer;
  }

  static build(vintageId: string, parcels: readonly IndexedParcelInput[]): ParcelIndex {
    const layer = VectorLayerIndex.build(PARCELS, vintageId, parcels);
    const keys = parcels.map((parcel) => parcel.parcel_key);
    const records = emptyRecordColumns();
    for (const parcel of parcels) for (const field of RECORD_FIELDS) (records[field] as unknown[]).push(parcel[field]);
    // Held as a restored index holds them (not a million strings in arrays until the next start).
    const singlePart = Uint8Array.from(parcels, (parcel) => (parcel.geometry.type === 'Polygon' ? 1 : 0));
    const { tree } = layer.toParts();
    const flat = layer.snapshot();
    return new ParcelIndex({
      vintageId,
      flat,
      worldY: worldYs(flat.coords),
      keys: new NullableStrings(packStrings(keys)),
      records: recordReader(packRecords(records)),
      singlePart,
      tree: tree ? Flatbush.from(tree) : null,
      keyOrder: keyOrderOf(keys),
      layer,
    });
  }

  /** The index again from its stored arrays, in this thread (tests, benchmarks): what the worker computes, here. */
  static restore(stored: StoredParcelIndex): ParcelIndex {
    ParcelIndex.checkStored(stored);
    return ParcelIndex.fromRestored(restoredParts(stored));
  }

  /**
   * The index from what restoredParts made (in a worker thread, handed over): views, no copies, no
   * parsing, and no object per parcel (the engine's index views its shapes when it measures them).
   */
  static fromRestored(parts: RestoredParcelIndex): ParcelIndex {
    const { records } = parts;
    const tree = parts.engine.tree ? Flatbush.from(parts.engine.tree) : null;
    return new ParcelIndex({
      vintageId: parts.vintageId,
      flat: parts.shapes,
      keys: new NullableStrings(parts.keys),
      records: recordReader(records),
      singlePart: parts.singlePart,
      worldY: parts.worldY,
      tree,
      keyOrder: parts.keyOrder,
      layer: VectorLayerIndex.fromParts(parts.engine),
    });
  }

  static checkStored(stored: StoredParcelIndex): void {
    const size = stored.keys.length;
    if (stored.shapes.shapeKinds.length !== size || stored.singlePart.length !== size || RECORD_FIELDS.some((field) => stored.records[field].length !== size)) {
      throw new Error(`stored parcel index of vintage ${stored.vintageId} is inconsistent`);
    }
  }

  /** The index as flat arrays, to store. */
  stored(): StoredParcelIndex {
    const column = <T>(values: ValueColumn<T>) => Array.from({ length: this.size }, (_, id) => values.at(id) ?? null);
    const records = Object.fromEntries(RECORD_FIELDS.map((field) => [field, column(this.records[field] as ValueColumn<unknown>)])) as unknown as ParcelRecordColumns;
    return { vintageId: this.vintageId, shapes: this.flat, keys: column(this.keys) as string[], records, singlePart: this.singlePart };
  }

  get size(): number {
    return this.keys.length;
  }

  /**
   * Bytes it holds: every buffer its arrays and the engine's index keep alive, counted once each
   * whoever made it (the worker thread's SharedArrayBuffers included: process.memoryUsage() in
   * this thread does not see those), and its keys and records as they are held.
   */
  approximateBytes(): number {
    this.heldBytes ??= this.heldParts().reduce((sum, { bytes }) => sum + bytes, 0);
    return this.heldBytes;
  }

  /** What it holds by part, each buffer in the first part that keeps it (`npm run bench:discovery-memory` prints them). */
  heldParts(): { part: string; bytes: number }[] {
    const f = this.flat;
    const counted = new Set<ArrayBufferLike>();
    const buffers = (held: Iterable<ArrayBufferLike>) => {
      const fresh = [...held].filter((buffer) => !counted.has(buffer));
      for (const buffer of fresh) counted.add(buffer);
      return new ByteCount().buffers(fresh).total();
    };
    const views = (...arrays: ArrayBufferView[]) => buffers(arrays.map((array) => array.buffer));
    const list = (values: ValueColumn<unknown>) => new ByteCount().list(values).total();
    const form = (values: ValueColumn<unknown>) => (values instanceof CodedStrings ? ', coded' : values instanceof NullableStrings ? ', packed' : '');
    return [
      { part: 'coordinates (float64 lon/lat)', bytes: views(f.coords) },
      { part: 'web-mercator y of every vertex, for tiles', bytes: views(this.worldY) },
      { part: 'boxes', bytes: views(f.boxes) },
      { part: 'shape offsets', bytes: views(f.shapeKinds, f.coordStarts, f.pathStarts, f.paths, f.polygonStarts, f.polygons) },
      { part: 'key order, single-part flags', bytes: views(this.keyOrder, this.singlePart) },
      { part: `keys${form(this.keys)}`, bytes: list(this.keys) },
      ...RECORD_FIELDS.map((field) => ({ part: `${field}${form(this.records[field])}`, bytes: list(this.records[field] as ValueColumn<unknown>) })),
      { part: 'box tree (the engine\'s, shared with tiles)', bytes: buffers(this.tree ? [this.tree.data] : []) },
      { part: 'the engine\'s buckets and per-parcel arrays', bytes: buffers(heldBuffers(this.layer)) },
    ];
  }

  /**
   * The parcel containing the point (holes are outside, an edge is inside; of overlapping parcels
   * the smallest, then the first), else the one whose boundary is nearest within `radiusM`
   * (ties: the first), else null. Distances are geodesic: measured in the plane of the engine's
   * WGS84 ruler at the point, which is exact to 1e-4 far beyond any radius allowed here.
   */
  locate(lon: number, lat: number, radiusM: number): ParcelHit | null {
    const ruler = rulerAt(lat);
    this.layer.within(lon, lat, 0, ruler, this.hits);
    if (this.hits.count > 0) {
      let best = this.hits.ids[0];
      for (let i = 1; i < this.hits.count; i++) {
        const id = this.hits.ids[i];
        const area = this.layer.areaM2(id)!;
        const bestArea = this.layer.areaM2(best)!;
        if (area < bestArea || (area === bestArea && id < best)) best = id;
      }
      return { id: best, match_type: 'exact_intersect', distance_m: 0 };
    }
    const nearest = this.layer.nearest(lon, lat, ruler, null, Math.min(radiusM, this.layer.spacingM), radiusM);
    return nearest ? { id: nearest.id, match_type: 'nearest_within_radius', distance_m: nearest.distance } : null;
  }

  /** Positions of the parcels whose boxes meet the box (degrees): a map tile's candidates. */
  searchBox(west: number, south: number, east: number, north: number): number[] {
    return this.tree ? this.tree.search(west, south, east, north) : [];
  }

  /** The parcel's polygon as the engine packs it (degrees; always multi-part), viewed in the flat arrays. */
  shape(id: number): PackedShape {
    const { coords, coordStarts, paths, pathStarts, polygons, polygonStarts, boxes } = this.flat;
    return {
      kind: 'polygon',
      coords: coords.subarray(coordStarts[id]! * 2, coordStarts[id + 1]! * 2),
      paths: paths.subarray(pathStarts[id]!, pathStarts[id + 1]!),
      polygons: polygons.subarray(polygonStarts[id]!, polygonStarts[id + 1]!),
      bbox: [boxes[id * 4]!, boxes[id * 4 + 1]!, boxes[id * 4 + 2]!, boxes[id * 4 + 3]!],
    };
  }

  /** The parcel at a position, its geometry as it was stored (Polygon or MultiPolygon). */
  parcel(id: number) {
    const multi = this.layer.polygonGeometry(id) as Extract<PolygonalGeometry, { type: 'MultiPolygon' }>;
    const geometry: PolygonalGeometry = this.singlePart[id] === 1 ? { type: 'Polygon', coordinates: multi.coordinates[0] } : multi;
    const r = this.records;
    return {
      parcel_key: this.keys.at(id)!,
      geometry,
      area_m2: this.layer.areaM2(id)!,
      apn: r.apn.at(id) ?? null,
      address: r.address.at(id) ?? null,
      owner_name: r.owner_name.at(id) ?? null,
      zoning: r.zoning.at(id) ?? null,
      acres: r.acres.at(id) ?? null,
      lat: r.lat.at(id) ?? null,
      lon: r.lon.at(id) ?? null,
    };
  }
}
