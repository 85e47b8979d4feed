// The parcels of one vintage indexed for "which parcel is at this point": the point-data engine's
// vector index (a Flatbush R-tree over the parcels' boxes, polygons packed for exact measuring)
// built as a polygon layer, with the parcel's record fields kept beside it by position. Vintages
// are immutable, so an index is built once and never goes stale.

import type { LayerSource, SourceId } from '@landscreen/field-catalog';
import { worldCoordinates } from '@landscreen/vector-tiles';
import { rulerAt, VectorLayerIndex, type PackedShape, type PolygonalGeometry, type VectorLayerSnapshot } from '@landscreen/point-engine';

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

/** The record fields of the indexed parcels, one array per field by position. */
export interface ParcelRecordColumns {
  apn: (string | null)[];
  address: (string | null)[];
  owner_name: (string | null)[];
  zoning: (string | null)[];
  acres: (number | null)[];
  lat: (number | null)[];
  lon: (number | null)[];
}

export const RECORD_FIELDS = ['apn', 'address', 'owner_name', 'zoning', 'acres', 'lat', 'lon'] as const;

/** An index as flat arrays: what is stored (parcel-index-blob.ts) and what an index is restored from. */
export interface StoredParcelIndex {
  vintageId: string;
  shapes: VectorLayerSnapshot;
  keys: string[];
  records: ParcelRecordColumns;
  /** 1 where the stored geometry was a Polygon (the packed copy is always multi-part). */
  singlePart: Uint8Array;
}

export function emptyRecordColumns(): ParcelRecordColumns {
  return { apn: [], address: [], owner_name: [], zoning: [], acres: [], lat: [], lon: [] };
}

/** World coordinates computed this many values at a time (a few ms) between turns of the event loop. */
const WORLD_SLICE = 1 << 20;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class ParcelIndex {
  private readonly hits = new Hits();

  /** Every parcel's vertices in web mercator world coordinates, for map tiles (world-polygon.ts). */
  readonly world: Float64Array;

  private constructor(
    readonly vintageId: string,
    private readonly layer: VectorLayerIndex,
    /** The polygons in flat arrays (the engine's snapshot layout), which tiles read by position. */
    readonly flat: VectorLayerSnapshot,
    readonly keys: readonly string[],
    private readonly records: ParcelRecordColumns,
    private readonly singlePart: Uint8Array,
    world?: Float64Array,
  ) {
    this.world = world ?? worldCoordinates(flat.coords);
  }

  static build(vintageId: string, parcels: readonly IndexedParcelInput[]): ParcelIndex {
    const layer = VectorLayerIndex.build(PARCELS, vintageId, parcels);
    const keys = parcels.map((parcel) => parcel.parcel_key);
    const records = emptyRecordColumns();
    for (const parcel of parcels) for (const field of RECORD_FIELDS) (records[field] as unknown[]).push(parcel[field]);
    const singlePart = Uint8Array.from(parcels, (parcel) => (parcel.geometry.type === 'Polygon' ? 1 : 0));
    return new ParcelIndex(vintageId, layer, layer.snapshot(), keys, records, singlePart);
  }

  /** The index again from its stored arrays: the tree is rebuilt, the coordinates are not copied. */
  static restore(stored: StoredParcelIndex): ParcelIndex {
    ParcelIndex.checkStored(stored);
    const layer = VectorLayerIndex.restore(stored.shapes);
    return new ParcelIndex(stored.vintageId, layer, stored.shapes, stored.keys, stored.records, stored.singlePart);
  }

  /**
   * restore, for a service: a million parcels' tree and world coordinates take seconds of CPU,
   * so the work yields between its steps and slices and other requests are answered meanwhile.
   */
  static async restoreYielding(stored: StoredParcelIndex): Promise<ParcelIndex> {
    ParcelIndex.checkStored(stored);
    await nextTurn();
    const layer = VectorLayerIndex.restore(stored.shapes);
    const degrees = stored.shapes.coords;
    const world = new Float64Array(degrees.length);
    for (let start = 0; start < degrees.length; start += WORLD_SLICE) {
      await nextTurn();
      world.set(worldCoordinates(degrees.subarray(start, start + WORLD_SLICE)), start);
    }
    return new ParcelIndex(stored.vintageId, layer, stored.shapes, stored.keys, stored.records, stored.singlePart, world);
  }

  private static checkStored(stored: StoredParcelIndex): void {
    const size = stored.keys.length;
    if (stored.shapes.shapeKinds.length !== size || stored.singlePart.length !== size || RECORD_FIELDS.some((field) => stored.records[field].length !== size)) {
      throw new Error(`stored parcel index of vintage ${stored.vintageId} is inconsistent`);
    }
  }

  /** The index as flat arrays, to store. */
  stored(): StoredParcelIndex {
    return { vintageId: this.vintageId, shapes: this.flat, keys: [...this.keys], records: this.records, singlePart: this.singlePart };
  }

  get size(): number {
    return this.keys.length;
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
    return this.layer.searchBox(west, south, east, north);
  }

  /** The parcel's polygon as the engine packs it (degrees; always multi-part). */
  shape(id: number): PackedShape {
    return this.layer.shape(id);
  }

  /** The parcel at a position, its geometry as it was stored (Polygon or MultiPolygon). */
  parcel(id: number) {
    const multi = this.layer.polygonGeometry(id) as Extract<PolygonalGeometry, { type: 'MultiPolygon' }>;
    const geometry: PolygonalGeometry = this.singlePart[id] === 1 ? { type: 'Polygon', coordinates: multi.coordinates[0] } : multi;
    const r = this.records;
    return {
      parcel_key: this.keys[id],
      geometry,
      area_m2: this.layer.areaM2(id)!,
      apn: r.apn[id] ?? null,
      address: r.address[id] ?? null,
      owner_name: r.owner_name[id] ?? null,
      zoning: r.zoning[id] ?? null,
      acres: r.acres[id] ?? null,
      lat: r.lat[id] ?? null,
      lon: r.lon[id] ?? null,
    };
  }
}
