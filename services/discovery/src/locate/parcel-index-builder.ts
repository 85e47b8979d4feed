// A vintage's parcel index gathered as an import streams its parcels: each polygon appended to
// growing flat arrays in the point engine's snapshot layout (layer-snapshot.ts), so a million
// parcels cost their coordinates' bytes, not a million GeoJSON objects held to the end.

import type { PolygonalGeometry, Position, VectorLayerSnapshot } from '@landscreen/point-engine';
import type { IndexedParcelInput } from './parcel-index.js';
import { emptyRecordColumns, RECORD_FIELDS, type StoredParcelIndex } from './stored-parcel-index.js';

const POLYGON_KIND = 2;

/** A typed array that doubles when full. */
class Growing<T extends Float64Array | Uint32Array | Uint8Array> {
  length = 0;
  private array: T;

  constructor(private readonly Type: { new (length: number): T }) {
    this.array = new Type(1024);
  }

  push(value: number): void {
    if (this.length === this.array.length) {
      const grown = new this.Type(this.array.length * 2);
      grown.set(this.array);
      this.array = grown;
    }
    this.array[this.length++] = value;
  }

  /** The values, trimmed to their length, in memory of their own. */
  finish(): T {
    return this.array.slice(0, this.length) as T;
  }
}

export class ParcelIndexBuilder {
  private readonly coordStarts = new Growing(Uint32Array);
  private readonly coords = new Growing(Float64Array);
  private readonly pathStarts = new Growing(Uint32Array);
  private readonly paths = new Growing(Uint32Array);
  private readonly polygonStarts = new Growing(Uint32Array);
  private readonly polygons = new Growing(Uint32Array);
  private readonly boxes = new Growing(Float64Array);
  private readonly singlePart = new Growing(Uint8Array);
  private readonly keys: string[] = [];
  private readonly records = emptyRecordColumns();

  constructor(readonly vintageId: string) {}

  get size(): number {
    return this.keys.length;
  }

  /** Adds a parcel with a polygonal geometry; any other (a point) is never located, so it is skipped. */
  add(parcel: Omit<IndexedParcelInput, 'geometry'> & { geometry: { type: string; coordinates?: unknown } | null }): void {
    const geometry = parcel.geometry;
    if (geometry?.type !== 'Polygon' && geometry?.type !== 'MultiPolygon') return;
    const polygonal = geometry as PolygonalGeometry;
    const polygons = polygonal.type === 'Polygon' ? [polygonal.coordinates] : polygonal.coordinates;
    this.coordStarts.push(this.coords.length / 2);
    this.pathStarts.push(this.paths.length);
    this.polygonStarts.push(this.polygons.length);
    let [west, south, east, north] = [Infinity, Infinity, -Infinity, -Infinity];
    let positions = 0;
    let rings = 0;
    for (const polygon of polygons) {
      this.polygons.push(rings);
      for (const ring of polygon as readonly (readonly Position[])[]) {
        this.paths.push(positions);
        rings++;
        for (const [lon, lat] of ring) {
          this.coords.push(lon!);
          this.coords.push(lat!);
          if (lon! < west) west = lon!;
          if (lat! < south) south = lat!;
          if (lon! > east) east = lon!;
          if (lat! > north) north = lat!;
          positions++;
        }
      }
    }
    this.paths.push(positions);
    this.polygons.push(rings);
    for (const value of [west, south, east, north]) this.boxes.push(value);
    this.singlePart.push(polygonal.type === 'Polygon' ? 1 : 0);
    this.keys.push(parcel.parcel_key);
    for (const field of RECORD_FIELDS) (this.records[field] as unknown[]).push(parcel[field] ?? null);
  }

  finish(): StoredParcelIndex {
    const size = this.keys.length;
    this.coordStarts.push(this.coords.length / 2);
    this.pathStarts.push(this.paths.length);
    this.polygonStarts.push(this.polygons.length);
    const shapes: VectorLayerSnapshot = {
      kind: 'vector',
      source: 'parcel_vendor' as VectorLayerSnapshot['source'],
      version: this.vintageId,
      shapeKinds: new Uint8Array(size).fill(POLYGON_KIND),
      coordStarts: this.coordStarts.finish(),
      coords: this.coords.finish(),
      pathStarts: this.pathStarts.finish(),
      paths: this.paths.finish(),
      polygonStarts: this.polygonStarts.finish(),
      polygons: this.polygons.finish(),
      boxes: this.boxes.finish(),
      columns: [],
    };
    return { vintageId: this.vintageId, shapes, keys: this.keys, records: this.records, singlePart: this.singlePart.finish() };
  }
}
