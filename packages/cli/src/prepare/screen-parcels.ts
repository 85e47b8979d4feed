// One page of parcels screened on the engine: point fields at the parcel's representative point
// (the lat/lon its record stores: parcel-io's representativePoint, the centroid of the largest
// polygon's outer ring), parcel-overlay fields on its own polygon (the parcel matched to itself,
// exact_intersect). Each answer becomes a derived fact, nulls included (D14: rules see unknown),
// with its provenance — and, for a null, its reason — beside the parcel.

import type { Engine, EvaluationPlan, Location, ParcelMatch, PolygonalGeometry, Provenance } from '@landscreen/point-engine';
import type { ParcelRecord } from '@landscreen/parcel-io';

/** How a prepared fact was made, stored in the parcel's provenance under the field's name. */
export interface PreparedProvenance {
  /** The layer source it was read from (for a parcel overlay: the overlaid layer). */
  source: string | null;
  layer_version: string | null;
  formula_version: number | null;
  /** Every layer it used, when more than one (overlays: the parcel's vintage and the layers). */
  layers?: { source: string; layer_version: string }[];
  /** Why the fact is null (the engine's reasons, or no_location for a parcel with no geometry). */
  null_reason?: string;
}

export interface ScreenContext {
  engine: Engine;
  plan: EvaluationPlan;
  fields: readonly string[];
  /** The vintage the parcels are read from: the parcel overlays' provenance. */
  baseVintageId: string;
  /** The source each field reads, for the provenance of a null with no layer behind it. */
  sourceOf: (field: string) => string | null;
}

export function screenParcels(context: ScreenContext, records: ParcelRecord[]): void {
  const located = records.filter((record) => record.lat !== null && record.lon !== null);
  const locations: Location[] = located.map((record) => ({ lat: record.lat!, lon: record.lon! }));
  const parcels = located.map((record): ParcelMatch => ({
    vintage: context.baseVintageId,
    parcel: { id: record.parcelKey, geometry: polygonal(record.geometry) },
    match_type: 'exact_intersect',
    distance_m: 0,
    radius_m: 0,
  }));
  const answer = context.engine.evaluate(locations, context.plan, { parcels });
  const cache = new Map<Provenance, PreparedProvenance>();
  located.forEach((record, n) => {
    const provenance = record.computed as Record<string, unknown>;
    context.fields.forEach((field, f) => {
      const value = answer.value(n, f);
      record.derived.set(field, value);
      provenance[field] = preparedProvenance(context, field, answer.provenance(n, f), value === null ? answer.reason(n, f) : null, cache);
    });
  });
  for (const record of records) {
    if (record.lat !== null && record.lon !== null) continue;
    const provenance = record.computed as Record<string, unknown>;
    for (const field of context.fields) {
      record.derived.set(field, null);
      provenance[field] = { source: context.sourceOf(field), layer_version: null, formula_version: null, null_reason: 'no_location' };
    }
  }
}

function preparedProvenance(
  context: ScreenContext,
  field: string,
  provenance: Provenance | null,
  reason: string | null,
  cache: Map<Provenance, PreparedProvenance>,
): PreparedProvenance {
  if (provenance === null) {
    return { source: context.sourceOf(field), layer_version: null, formula_version: null, ...(reason === null ? {} : { null_reason: reason }) };
  }
  // Values share their engine provenance object: so do their stored ones (only a null adds its reason).
  let made = cache.get(provenance);
  if (!made) {
    const layers = provenance.layers.map(({ source, layer_version }) => ({ source, layer_version }));
    const primary = layers.find((layer) => layer.source !== 'parcel_vendor') ?? layers[0];
    made = {
      source: primary?.source ?? null,
      layer_version: primary?.layer_version ?? null,
      formula_version: provenance.formula_version,
      ...(layers.length > 1 ? { layers } : {}),
    };
    cache.set(provenance, made);
  }
  return reason === null ? made : { ...made, null_reason: reason };
}

function polygonal(geometry: ParcelRecord['geometry']): PolygonalGeometry | null {
  return geometry?.type === 'Polygon' || geometry?.type === 'MultiPolygon' ? (geometry as PolygonalGeometry) : null;
}
