// The parcel_record group: facts of the parcel matched to the point (the match itself is made
// by the caller: exact intersect, else nearest within a bounded radius) and the parcel-overlay
// measures of formula_version 1 (their formulas are in the catalog, layers/parcel-record.ts,
// and docs/layers.md): exact polygon intersections, measured like every area here.

import polygonClipping from 'polygon-clipping';
import { SOLAR_ACRES_PER_MWAC, type ParcelOverlay, type ParcelRecord, type SourceId } from '@landscreen/field-catalog';
import type { FieldValue, LayerRef, LocationAnswer, NullReason, Provenance } from './answers.js';
import { geodesicAreaM2, polygonAreaM2, SQUARE_METERS_PER_ACRE } from './polygon-area.js';
import type { PolygonalGeometry, Position } from './geometry.js';
import type { Slot } from './plan.js';
import type { VectorLayerIndex } from './vector-index.js';
import { clipPolygonToBox, coversBox } from './clip-to-box.js';

export interface MatchedParcel {
  readonly id: string;
  readonly geometry: PolygonalGeometry | null;
  readonly apn?: string | null;
  readonly address?: string | null;
  readonly owner?: string | null;
  readonly zoning?: string | null;
  readonly data_source?: 'vendor_paid' | 'vendor_free_tier' | null;
  /** When absent, the geodesic area of `geometry`. */
  readonly area_m2?: number | null;
}

export interface ParcelMatch {
  /** The parcel vintage the parcel belongs to (its provenance). */
  readonly vintage: string;
  readonly parcel: MatchedParcel;
  readonly match_type: 'exact_intersect' | 'nearest_within_radius';
  /** 0 for exact matches. */
  readonly distance_m: number;
  /** 0 for exact matches. */
  readonly radius_m: number;
}

/**
 * One provenance object per set of layer versions and formula, so the answers of a thousand
 * parcels share it (the answer packs provenances by identity; prepare stores one per field).
 */
const interned = new Map<string, Provenance>();

function internedProvenance(layers: readonly LayerRef[], formulaVersion: number | null): Provenance {
  let key = String(formulaVersion);
  for (const layer of layers) key += `\u0000${layer.source}\u0000${layer.layer_version}`;
  let provenance = interned.get(key);
  if (!provenance) {
    if (interned.size >= 1_000) interned.clear();
    provenance = Object.freeze({ layers: Object.freeze(layers), formula_version: formulaVersion });
    interned.set(key, provenance);
  }
  return provenance;
}

/** Per overlay field, its last provenance and what it was made of: the same for every parcel of a page. */
const lastOverlayProvenance = new WeakMap<ParcelOverlay, { vintage: string; indexes: readonly VectorLayerIndex[]; provenance: Provenance }>();

function overlayProvenance(overlay: ParcelOverlay, vintage: string, indexes: readonly VectorLayerIndex[]): Provenance {
  const last = lastOverlayProvenance.get(overlay);
  if (last && last.vintage === vintage && last.indexes.length === indexes.length) {
    let same = true;
    for (let k = 0; k < indexes.length; k++) if (last.indexes[k] !== indexes[k]) same = false;
    if (same) return last.provenance;
  }
  const refs: LayerRef[] = [{ source: 'parcel_vendor', layer_version: vintage }];
  for (const index of indexes) refs.push({ source: index.source, layer_version: index.version });
  const provenance = internedProvenance(refs, overlay.formula_version);
  lastOverlayProvenance.set(overlay, { vintage, indexes: [...indexes], provenance });
  return provenance;
}

export function evaluateParcelRecord(slots: readonly Slot<ParcelRecord>[], match: ParcelMatch, answer: LocationAnswer): void {
  const provenance = internedProvenance([{ source: 'parcel_vendor', layer_version: match.vintage }], null);
  for (const slot of slots) {
    const value = parcelItem(slot.evaluator.item, match);
    answer.setValue(slot.index, value);
    answer.reasons[slot.index] = value === null ? 'not_published' : null;
    answer.provenance[slot.index] = provenance;
  }
}

function parcelItem(item: ParcelRecord['item'], match: ParcelMatch): FieldValue {
  const { parcel } = match;
  const exact = match.match_type === 'exact_intersect';
  switch (item) {
    case 'geometry_wkt':
      return parcel.geometry ? polygonWkt(largestPolygon(parcel.geometry)) : null;
    case 'boundary_geojson':
      return parcel.geometry ? JSON.stringify(parcel.geometry) : null;
    case 'id':
      return parcel.id;
    case 'area_m2':
      return parcel.area_m2 ?? (parcel.geometry ? geodesicAreaM2(parcel.geometry) : null);
    case 'match_type':
      return match.match_type;
    case 'match_distance_m':
      return exact ? 0 : match.distance_m;
    case 'match_radius_m':
      return exact ? 0 : match.radius_m;
    default:
      return parcel[item] ?? null;
  }
}

type Rings = readonly (readonly Position[])[];

/** The spec's parcel_geometry_wkt is a single POLYGON: the largest part of a multi-polygon. */
function largestPolygon(geometry: PolygonalGeometry): Rings {
  if (geometry.type === 'Polygon') return geometry.coordinates;
  let best = geometry.coordinates[0];
  for (const polygon of geometry.coordinates) if (polygonAreaM2(polygon) > polygonAreaM2(best)) best = polygon;
  return best;
}

function polygonWkt(rings: Rings): string {
  return `POLYGON(${rings.map((ring) => `(${ring.map((p) => `${p[0]} ${p[1]}`).join(', ')})`).join(', ')})`;
}

/** Layers by source, as the engine holds them; overlays only read polygon layers. */
export type VectorLayers = (source: SourceId) => VectorLayerIndex | undefined;

/** Overlay measures of one parcel, each computed at most once per location. */
export function evaluateParcelOverlays(
  slots: readonly Slot<ParcelOverlay>[],
  match: ParcelMatch,
  layers: VectorLayers,
  answer: LocationAnswer,
): void {
  const covered = new Map<string, number>();
  const geometry = match.parcel.geometry;
  const parcelAcres = geometry ? geodesicAreaM2(geometry) / SQUARE_METERS_PER_ACRE : 0;
  const coveredAcres = (sources: readonly SourceId[]): number => {
    const key = sources.join(',');
    let acres = covered.get(key);
    if (acres === undefined) {
      acres = overlayAcres(geometry!, sources.map((source) => layers(source)!));
      covered.set(key, acres);
    }
    return acres;
  };
  for (const slot of slots) {
    const overlay = slot.evaluator;
    const indexes = overlay.sources.map((source) => layers(source));
    const i = slot.index;
    answer.clearValue(i);
    if (indexes.some((index) => index === undefined)) {
      answer.reasons[i] = 'no_coverage';
      answer.provenance[i] = null;
      continue;
    }
    answer.provenance[i] = overlayProvenance(overlay, match.vintage, indexes as readonly VectorLayerIndex[]);
    if (!geometry || parcelAcres <= 0) {
      answer.reasons[i] = 'not_published';
      continue;
    }
    const [value, reason] = overlayValue(overlay, parcelAcres, coveredAcres);
    answer.setValue(i, value);
    answer.reasons[i] = reason;
  }
}

function overlayValue(
  overlay: ParcelOverlay,
  parcelAcres: number,
  coveredAcres: (sources: readonly SourceId[]) => number,
): [number, NullReason | null] {
  const fraction = (acres: number) => Math.min(1, Math.max(0, acres / parcelAcres));
  const developable = () => Math.max(0, parcelAcres - coveredAcres(overlay.sources));
  switch (overlay.measure) {
    case 'wetland_acres_on_parcel':
    case 'easement_acres_on_parcel':
      return [coveredAcres(overlay.sources), null];
    case 'wetland_fraction_of_parcel':
    case 'easement_fraction_of_parcel':
      return [fraction(coveredAcres(overlay.sources)), null];
    case 'developable_acres_proxy':
      return [developable(), null];
    case 'onsite_solar_potential_mwac_low':
      return [developable() / SOLAR_ACRES_PER_MWAC.low, null];
    case 'onsite_solar_potential_mwac_high':
      return [developable() / SOLAR_ACRES_PER_MWAC.high, null];
  }
}

type ClipGeometry = Parameters<typeof polygonClipping.union>[0];

/**
 * Acres of the parcel covered by the union of the layers' polygons meeting its bounding box.
 * The polygons are first cut to that box (clip-to-box.ts): the same cover of the parcel, with
 * only the vertices near it. One cut polygon covering the whole box covers the whole parcel.
 */
export function overlayAcres(parcel: PolygonalGeometry, layers: readonly VectorLayerIndex[]): number {
  const subject = parcel.coordinates as unknown as ClipGeometry;
  const box = boundsOf(parcel);
  const cover: ClipGeometry[] = [];
  for (const layer of layers) {
    for (const id of layer.searchBox(box[0], box[1], box[2], box[3])) {
      const polygon = layer.polygonGeometry(id);
      if (!polygon) continue;
      // polygonGeometry answers a MultiPolygon; a Polygon is one part.
      const parts = polygon.type === 'Polygon' ? [polygon.coordinates] : polygon.coordinates;
      for (const part of parts) {
        const cut = clipPolygonToBox(part, box);
        if (cut === null) continue;
        if (coversBox(cut, box)) return geodesicAreaM2(parcel) / SQUARE_METERS_PER_ACRE;
        cover.push(cut as unknown as ClipGeometry);
      }
    }
  }
  if (cover.length === 0) return 0;
  const covering = cover.length === 1 ? cover[0] : polygonClipping.union(cover[0], ...cover.slice(1));
  const inside = polygonClipping.intersection(subject, covering);
  return geodesicAreaM2({ type: 'MultiPolygon', coordinates: inside }) / SQUARE_METERS_PER_ACRE;
}

function boundsOf(geometry: PolygonalGeometry): [number, number, number, number] {
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  for (const polygon of polygons) {
    for (const [lon, lat] of polygon[0]) {
      box[0] = Math.min(box[0], lon);
      box[1] = Math.min(box[1], lat);
      box[2] = Math.max(box[2], lon);
      box[3] = Math.max(box[3], lat);
    }
  }
  return box;
}
