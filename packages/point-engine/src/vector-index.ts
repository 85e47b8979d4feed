// The index of one vector layer version: features packed for measuring (geometry.ts), one
// Flatbush R-tree over their bounding boxes, and their declared properties as columns. Every
// question the evaluators ask is one of two searches: the features within a radius (one box
// search, exact distances for the candidates) and the nearest feature (box searches of a growing
// radius until the nearest candidate lies inside the searched radius, which proves it nearest).

import Flatbush from 'flatbush';
import type { FeatureFilter, LayerSource, SourceId } from '@landscreen/field-catalog';
import { coerceProperty, filterKey, type PropertyValue } from './coerce.js';
import type { Ruler } from './geodesy.js';
import { ON_EDGE_M, measureFlat, measureRun, packGeometry, unpackPolygons, type Geometry, type Measure, type PackedShape, type PolygonalGeometry } from './geometry.js';
import { geodesicAreaM2 } from './polygon-area.js';
import { LayerBuildError } from './errors.js';
import { BucketGrid, MAX_SEARCH_CELLS } from './bucket-grid.js';
import { KIND_CODE, restoreShape, snapshotShapes, type VectorLayerSnapshot } from './layer-snapshot.js';
import { deriveParts, isCut, type VectorLayerParts } from './vector-parts.js';

export interface FeatureInput {
  readonly geometry: Geometry;
  readonly properties?: Readonly<Record<string, unknown>> | null;
}

/** Features found by a radius search, in no particular order (reused between searches). */
export class Hits {
  count = 0;
  ids: number[] = [];
  /** Meters in the query's ruler plane; 0 inside a polygon. */
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

export interface Nearest {
  id: number;
  /** Meters in the query's ruler plane. */
  distance: number;
  /** The feature's point nearest to the query. */
  lon: number;
  lat: number;
}

const ACCEPTED: Record<LayerSource['geometry'], readonly Geometry['type'][]> = {
  points: ['Point', 'MultiPoint'],
  lines: ['LineString', 'MultiLineString'],
  polygons: ['Polygon', 'MultiPolygon'],
  mixed: ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'],
  grid: [],
};

/**
 * The squared plane distance from the point to a box, the shorter way round the antimeridian: a
 * lower bound of the distance `measure` gives to anything inside (it measures from the side of
 * the antimeridian nearer the shape).
 */
function wrappedBoxDistance2(x0: number, y0: number, x1: number, y1: number, lon: number, lat: number, kx: number, ky: number): number {
  let gx = lon < x0 ? x0 - lon : lon > x1 ? lon - x1 : 0;
  if (gx > 0) {
    const around = 360 - (x1 - x0) - gx;
    if (around < gx) gx = around < 0 ? 0 : around;
  }
  const ex = gx * kx;
  const ey = lat < y0 ? (y0 - lat) * ky : lat > y1 ? (lat - y1) * ky : 0;
  return ex * ex + ey * ey;
}

/** Flatbush's packed tree, as its best-first search reads it (flatbush 4.7.0, pinned). */
interface FlatbushInternals {
  readonly _boxes: Float64Array;
  readonly _indices: Uint16Array | Uint32Array;
  readonly _levelBounds: number[];
  readonly nodeSize: number;
  readonly numItems: number;
}

/** A binary min-heap of (item, priority), reused between searches. */
class MinHeap {
  private items = new Uint32Array(64);
  private values = new Float64Array(64);
  length = 0;

  clear(): void {
    this.length = 0;
  }

  topValue(): number {
    return this.values[0];
  }

  push(item: number, value: number): void {
    if (this.length === this.items.length) {
      const items = new Uint32Array(this.length * 2);
      items.set(this.items);
      const values = new Float64Array(this.length * 2);
      values.set(this.values);
      this.items = items;
      this.values = values;
    }
    let pos = this.length++;
    const { items, values } = this;
    while (pos > 0) {
      const parent = (pos - 1) >> 1;
      const current = values[parent];
      if (value >= current) break;
      items[pos] = items[parent];
      values[pos] = current;
      pos = parent;
    }
    items[pos] = item;
    values[pos] = value;
  }

  pop(): number {
    const { items, values } = this;
    const top = items[0];
    const last = --this.length;
    if (last > 0) {
      const item = items[last];
      const value = values[last];
      const half = last >> 1;
      let pos = 0;
      while (pos < half) {
        let left = (pos << 1) + 1;
        const right = left + 1;
        if (right < last && values[right] < values[left]) left = right;
        if (values[left] >= value) break;
        items[pos] = items[left];
        values[pos] = values[left];
        pos = left;
      }
      items[pos] = item;
      values[pos] = value;
    }
    return top;
  }
}

export class VectorLayerIndex {
  readonly source: SourceId;
  readonly version: string;
  /** Per feature: 1 for polygons (containing-polygon candidates). */
  readonly polygonal: Uint8Array;
  /** Per entry of the tree: 1 for a single point, whose distance is its bounding box's. */
  private readonly singlePoint: Uint8Array;
  /**
   * The features and the tree's entries as flat arrays, measured in place by position: no object
   * per feature (a shape object and its views cost about 400 bytes a feature once read).
   */
  private readonly parts: VectorLayerParts;
  /** Per entry: the feature it belongs to; null when every entry is its feature. */
  private readonly entryFeature: Uint32Array | null;
  /** Per feature: the search that last hit it, and where in the hits (lines in pieces are hit once per search). */
  private readonly hitSearch: Int32Array;
  private readonly hitAt: Int32Array;
  private search = 0;
  readonly kind = 'vector' as const;
  private readonly tree: Flatbush | null;
  private readonly columns: ReadonlyMap<string, PropertyValue[]>;
  private readonly areas: Float64Array;
  private readonly masks = new Map<string, Uint8Array>();
  private readonly rankColumns = new Map<string, Float64Array>();
  /** A first nearest-search radius that usually holds a feature: the layer's mean spacing. */
  readonly spacingM: number;
  private readonly scratch: Measure = { distance: 0, lon: 0, lat: 0 };
  /** Per entry of the tree: its box (minLon, minLat, maxLon, maxLat), read without touching the shape. */
  private readonly entryBoxes: Float64Array;
  private readonly heap = new MinHeap();
  /** Buckets over the entry boxes for radius searches (null: the tree answers every search). */
  private readonly buckets: BucketGrid | null;
  /** Per entry: the search that last met it in the buckets (an entry spans several cells). */
  private readonly entrySearch: Int32Array;

  /** Made from computed parts: nothing is computed again, and shapes are made as they are read. */
  private constructor(parts: VectorLayerParts) {
    const { shapes: flat, entries } = parts;
    const size = flat.shapeKinds.length;
    this.source = flat.source;
    this.version = flat.version;
    this.parts = parts;
    this.columns = new Map(flat.columns);
    this.areas = new Float64Array(size).fill(Number.NaN);
    this.polygonal = Uint8Array.from(flat.shapeKinds, (kind) => (kind === KIND_CODE.polygon ? 1 : 0));
    this.entryFeature = entries.feature;
    this.hitSearch = new Int32Array(this.entryFeature ? size : 0);
    this.hitAt = new Int32Array(this.entryFeature ? size : 0);
    this.singlePoint = entries.singlePoint;
    this.entryBoxes = entries.boxes;
    this.buckets = parts.buckets ? BucketGrid.fromParts(parts.buckets) : null;
    this.entrySearch = new Int32Array(this.buckets ? entries.count : 0);
    this.tree = parts.tree ? Flatbush.from(parts.tree) : null;
    this.spacingM = parts.spacingM;
  }

  /** The features as shared typed arrays (layer-snapshot.ts): what the index is stored and handed over as. */
  snapshot(): VectorLayerSnapshot {
    return this.parts.shapes;
  }

  /** Everything the index computed, as shared typed arrays: another thread makes the same index from them (fromParts). */
  toParts(): VectorLayerParts {
    return this.parts;
  }

  /** The index again from a snapshot of its features, in another thread: its tree is computed again, its coordinates not copied. */
  static restore(snapshot: VectorLayerSnapshot): VectorLayerIndex {
    return new VectorLayerIndex(deriveParts(snapshot));
  }

  /** The index of `toParts()`, made in any thread without computing anything again. */
  static fromParts(parts: VectorLayerParts): VectorLayerIndex {
    return new VectorLayerIndex(parts);
  }

  /**
   * Indexes the features of one layer version of `source`. A feature of the wrong geometry kind
   * refuses the whole layer with its 1-based position: a layer version is all or nothing.
   */
  static build(declaration: LayerSource, version: string, features: Iterable<FeatureInput>): VectorLayerIndex {
    const accepted = ACCEPTED[declaration.geometry];
    const shapes: PackedShape[] = [];
    const columns = new Map<string, PropertyValue[]>(declaration.properties.map((p) => [p.name, []]));
    let position = 0;
    for (const feature of features) {
      position++;
      const geometry = feature.geometry;
      if (!geometry || !accepted.includes(geometry.type)) {
        throw new LayerBuildError(
          `feature ${position}: ${declaration.id} is a ${declaration.geometry} source; got ${geometry?.type ?? 'no geometry'}`,
          position,
        );
      }
      const shape = packGeometry(geometry);
      const [minLon, minLat, maxLon, maxLat] = shape.bbox;
      if (!(minLon >= -180 && maxLon <= 180 && minLat >= -90 && maxLat <= 90)) {
        throw new LayerBuildError(`feature ${position}: coordinates must be WGS84 longitude/latitude (none, or out of range)`, position);
      }
      shapes.push(shape);
      for (const declared of declaration.properties) {
        columns.get(declared.name)!.push(coerceProperty(declared, feature.properties?.[declared.name]));
      }
    }
    return new VectorLayerIndex(deriveParts(snapshotShapes(declaration.id, version, shapes, columns)));
  }

  get size(): number {
    return this.parts.shapes.shapeKinds.length;
  }

  /** Feature `id`'s packed shape (views into the layer's arrays, made at each call: callers outside the search loops). */
  shape(id: number): PackedShape {
    return restoreShape(this.parts.shapes, id);
  }

  /** Measures entry `entry` of the tree (its feature, or a piece of a long line) in the flat arrays. */
  private measureEntry(entry: number, lon: number, lat: number, ruler: Ruler, centreLon: number): Measure {
    const feature = this.entryFeature === null ? entry : this.entryFeature[entry];
    const flat = this.parts.shapes;
    if (this.entryFeature !== null && isCut(flat, feature)) {
      return measureRun(flat.coords, this.parts.entries.firstVertex![entry], this.parts.entries.lastVertex![entry], lon, lat, ruler, this.scratch, centreLon);
    }
    const { shapeKinds, coordStarts, pathStarts, polygonStarts } = flat;
    return measureFlat(
      shapeKinds[feature],
      flat.coords,
      coordStarts[feature],
      coordStarts[feature + 1],
      flat.paths,
      pathStarts[feature],
      pathStarts[feature + 1] - 1,
      flat.polygons,
      polygonStarts[feature],
      polygonStarts[feature + 1] - 1,
      lon,
      lat,
      ruler,
      this.scratch,
      centreLon,
    );
  }

  /** A declared property's values by feature position (empty for an undeclared name). */
  column(name: string): readonly PropertyValue[] {
    return this.columns.get(name) ?? [];
  }

  property(id: number, name: string): PropertyValue {
    const column = this.columns.get(name);
    return column ? column[id] : null;
  }

  /** 1 for every feature passing `filter`; cached per filter. */
  mask(filter: FeatureFilter): Uint8Array {
    const key = `${filter.property}\u0000${filter.oneOf.map(filterKey).join('\u0000')}`;
    let mask = this.masks.get(key);
    if (!mask) {
      const wanted = new Set(filter.oneOf.map(filterKey));
      const column = this.columns.get(filter.property);
      mask = new Uint8Array(this.size);
      if (column) column.forEach((value, i) => (mask![i] = value !== null && wanted.has(filterKey(value)) ? 1 : 0));
      this.masks.set(key, mask);
    }
    return mask;
  }

  /**
   * Fills `hits` with every feature within `radiusM` of the point (0 = containing or touching).
   * A walk of the tree of its own (not Flatbush's search): nodes are pruned by their plane
   * distance, not a lon/lat box (whose corners hold nothing within the radius), its stack is
   * reused (Flatbush's search allocates two arrays per call, garbage at millions of searches),
   * and candidates are measured inline rather than through a visitor function.
   */
  within(lon: number, lat: number, radiusM: number, ruler: Ruler, hits: Hits): void {
    hits.reset();
    const tree = this.tree;
    if (!tree) return;
    const { _boxes: boxes, _indices: indices, _levelBounds: levelBounds, nodeSize, numItems } = tree as unknown as FlatbushInternals;
    const { kx, ky } = ruler;
    const numItems4 = numItems * 4;
    // Searched a micrometre wider: a polygon that close counts as touching (geometry.ts).
    const limit2 = (radiusM + ON_EDGE_M) ** 2;
    const search = (this.search = (this.search + 1) | 0);
    const buckets = this.buckets;
    if (buckets !== null) {
      const dLon = (radiusM + ON_EDGE_M) / kx;
      const dLat = (radiusM + ON_EDGE_M) / ky;
      const c0 = Math.max(0, Math.floor((lon - dLon - buckets.minX) * buckets.sx));
      const c1 = Math.min(buckets.cols - 1, Math.floor((lon + dLon - buckets.minX) * buckets.sx));
      const r0 = Math.max(0, Math.floor((lat - dLat - buckets.minY) * buckets.sy));
      const r1 = Math.min(buckets.rows - 1, Math.floor((lat + dLat - buckets.minY) * buckets.sy));
      // Near the antimeridian the box may wrap: the tree, which measures the shorter way round, answers.
      const wraps = lon - dLon < -180 || lon + dLon > 180;
      if (!wraps && (c1 - c0 + 1) * (r1 - r0 + 1) <= MAX_SEARCH_CELLS) {
        if (c0 > c1 || r0 > r1) return;
        const { cellStart, cellEntries, cols } = buckets;
        const { entryBoxes, entrySearch } = this;
        for (let r = r0; r <= r1; r++) {
          for (let c = c0; c <= c1; c++) {
            const cell = r * cols + c;
            for (let k = cellStart[cell], end = cellStart[cell + 1]; k < end; k++) {
              const entry = cellEntries[k];
              if (entrySearch[entry] === search) continue;
              entrySearch[entry] = search;
              const p = entry * 4;
              const x0 = entryBoxes[p];
              const x1 = entryBoxes[p + 2];
              const d2 = wrappedBoxDistance2(x0, entryBoxes[p + 1], x1, entryBoxes[p + 3], lon, lat, kx, ky);
              if (d2 <= limit2) this.hitEntry(entry, x0, x1, d2, lon, lat, ruler, radiusM, hits, search);
            }
          }
        }
        return;
      }
    }
    let stack: Int32Array = this.stack;
    let top = 0;
    stack[top++] = boxes.length - 4;
    stack[top++] = levelBounds.length - 1;
    while (top > 0) {
      const level = stack[--top];
      const nodeIndex = stack[--top];
      const end = Math.min(nodeIndex + nodeSize * 4, levelBounds[level]);
      const leaves = nodeIndex < numItems4;
      for (let pos = nodeIndex; pos < end; pos += 4) {
        const x0 = boxes[pos];
        const x1 = boxes[pos + 2];
        const d2 = wrappedBoxDistance2(x0, boxes[pos + 1], x1, boxes[pos + 3], lon, lat, kx, ky);
        if (d2 > limit2) continue;
        const child = indices[pos >> 2];
        if (leaves) this.hitEntry(child, x0, x1, d2, lon, lat, ruler, radiusM, hits, search);
        else {
          if (top + 2 > stack.length) stack = this.growStack();
          stack[top++] = child;
          stack[top++] = level - 1;
        }
      }
    }
  }

  /** An entry whose box is within the radius: measured, and a hit if the shape is too. */
  private hitEntry(entry: number, x0: number, x1: number, d2: number, lon: number, lat: number, ruler: Ruler, radiusM: number, hits: Hits, search: number): void {
    const entryFeature = this.entryFeature;
    // A single point is its own box: measured without touching the shape (a cache miss each).
    let distance: number;
    if (this.singlePoint[entry] === 1 && Math.abs(x0 - lon) <= 180) distance = Math.sqrt(d2);
    else {
      // A piece of a line already hit nearer than this piece's box cannot change the hit.
      if (entryFeature !== null) {
        const feature = entryFeature[entry];
        if (this.hitSearch[feature] === search) {
          const known = hits.distances[this.hitAt[feature]];
          if (d2 >= known * known) return;
        }
      }
      distance = this.measureEntry(entry, lon, lat, ruler, (x0 + x1) / 2).distance;
    }
    if (distance > radiusM) return;
    if (entryFeature === null) hits.push(entry, distance);
    else this.hitPiece(hits, search, entryFeature[entry], distance);
  }

  private stack: Int32Array = new Int32Array(256);

  private growStack(): Int32Array {
    const stack: Int32Array = new Int32Array(this.stack.length * 2);
    stack.set(this.stack);
    this.stack = stack;
    return stack;
  }

  /** A piece of a line within the radius: its feature is one hit, at its nearest piece's distance. */
  private hitPiece(hits: Hits, search: number, feature: number, distance: number): void {
    if (this.hitSearch[feature] === search) {
      const at = this.hitAt[feature];
      if (distance < hits.distances[at]) hits.distances[at] = distance;
      return;
    }
    this.hitSearch[feature] = search;
    this.hitAt[feature] = hits.count;
    hits.push(feature, distance);
  }

  /**
   * The nearest feature passing `mask`, none farther than `maxDistanceM`; ties go to the lowest
   * feature position, so answers are stable. A best-first walk of the tree: nodes and entries in
   * a queue by the plane distance to their boxes (a lower bound of anything inside), so the walk
   * stops at the first box farther than the best feature measured. It measures only the entries
   * that could be nearer, where growing box searches measured every entry of the last box: up to
   * the whole market for a sparse layer of long lines. (`startM` is kept for callers; unused. `out`, when given, is filled and answered instead of a new object.)
   */
  nearest(lon: number, lat: number, ruler: Ruler, mask: Uint8Array | null, _startM = 0, maxDistanceM = Infinity, out?: Nearest): Nearest | null {
    const tree = this.tree;
    if (!tree) return null;
    const { _boxes: boxes, _indices: indices, _levelBounds: levelBounds, nodeSize, numItems } = tree as unknown as FlatbushInternals;
    const { kx, ky } = ruler;
    const numItems4 = numItems * 4;
    const heap = this.heap;
    heap.clear();
    const limit2 = maxDistanceM === Infinity ? Infinity : (maxDistanceM + ON_EDGE_M) ** 2;
    let bestId = -1;
    let best = Infinity;
    let best2 = Infinity;
    let bestLon = 0;
    let bestLat = 0;
    heap.push((boxes.length - 4) * 2, 0);
    while (heap.length > 0) {
      const top = heap.topValue();
      // best2 carries a micrometre of slack: a polygon that close to the point measures 0 (on its
      // edge), below its box's distance, and ties go to the lowest position.
      if (top > best2 || top > limit2) break;
      const item = heap.pop();
      if ((item & 1) === 1) {
        // An entry whose box is the nearest left: measure it.
        const entry = item >>> 1;
        const id = this.entryFeature === null ? entry : this.entryFeature[entry];
        let distance: number;
        let atLon: number;
        let atLat: number;
        const p = entry * 4;
        if (this.singlePoint[entry] === 1 && Math.abs(this.entryBoxes[p] - lon) <= 180) {
          distance = Math.sqrt(top);
          atLon = this.entryBoxes[p];
          atLat = this.entryBoxes[p + 1];
        } else {
          const m = this.measureEntry(entry, lon, lat, ruler, (this.entryBoxes[p] + this.entryBoxes[p + 2]) / 2);
          distance = m.distance;
          atLon = m.lon;
          atLat = m.lat;
        }
        if (distance < best || (distance === best && id < bestId)) {
          bestId = id;
          best = distance;
          best2 = (distance + ON_EDGE_M) * (distance + ON_EDGE_M);
          bestLon = atLon;
          bestLat = atLat;
        }
        continue;
      }
      const nodeIndex = item >>> 1;
      const leafLevel = nodeIndex < numItems4;
      let bound = 0;
      for (let l = 0; l < levelBounds.length; l++) {
        if (levelBounds[l] > nodeIndex) {
          bound = levelBounds[l];
          break;
        }
      }
      const end = Math.min(nodeIndex + nodeSize * 4, bound);
      for (let pos = nodeIndex; pos < end; pos += 4) {
        const d2 = wrappedBoxDistance2(boxes[pos], boxes[pos + 1], boxes[pos + 2], boxes[pos + 3], lon, lat, kx, ky);
        if (d2 > best2 || d2 > limit2) continue;
        const child = indices[pos >> 2];
        if (leafLevel) {
          if (mask !== null && mask[this.entryFeature === null ? child : this.entryFeature[child]] === 0) continue;
          heap.push(child * 2 + 1, d2);
        } else heap.push(child * 2, d2);
      }
    }
    if (bestId === -1 || best > maxDistanceM) return null;
    if (!out) return { id: bestId, distance: best, lon: bestLon, lat: bestLat };
    out.id = bestId;
    out.distance = best;
    out.lon = bestLon;
    out.lat = bestLat;
    return out;
  }

  /** A property as ranks (NaN: unranked), computed once per property and ranking. */
  ranks(property: string, rank: (value: PropertyValue) => number | null): Float64Array {
    const key = `${property}\u0000${rank.name}`;
    let ranks = this.rankColumns.get(key);
    if (!ranks) {
      const column = this.columns.get(property) ?? [];
      ranks = Float64Array.from({ length: this.size }, (_, i) => rank(column[i] ?? null) ?? Number.NaN);
      this.rankColumns.set(key, ranks);
    }
    return ranks;
  }

  /** Geodesic area of a polygon feature, in square meters (computed once). */
  areaM2(id: number): number | null {
    if (this.polygonal[id] !== 1) return null;
    // Read from the cache before anything is made: containing polygons are sorted by area at every location.
    if (Number.isNaN(this.areas[id])) this.areas[id] = geodesicAreaM2(this.polygonGeometry(id)!);
    return this.areas[id];
  }

  /** A polygon feature as GeoJSON, rebuilt from its packed shape (only the packed copy is kept). */
  polygonGeometry(id: number): PolygonalGeometry | null {
    const shape = this.shape(id);
    return shape.kind === 'polygon' ? { type: 'MultiPolygon', coordinates: unpackPolygons(shape) } : null;
  }

  /** Ids whose bounding boxes meet the box (for overlays). */
  searchBox(minLon: number, minLat: number, maxLon: number, maxLat: number): number[] {
    if (!this.tree) return [];
    const entries = this.tree.search(minLon, minLat, maxLon, maxLat);
    const entryFeature = this.entryFeature;
    return entryFeature === null ? entries : [...new Set(entries.map((entry) => entryFeature[entry]))];
  }
}
