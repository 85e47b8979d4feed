// Compiles a list of requested fields into an evaluation plan once, so that per location the
// engine runs one spatial query per source: fields are grouped by the source they read, and a
// vector source's group searches once at the largest radius any of its fields needs (counts,
// sums and maxima within smaller radii, containing-polygon fields and short nearest searches are
// all answered from that one set of candidates). Derivation inputs that were not requested are
// evaluated in hidden slots after the requested ones.

import {
  FIELD_BY_NAME,
  evaluatorOf,
  type Derived,
  type FeatureFilter,
  type FieldEvaluator,
  type ParcelOverlay,
  type ParcelRecord,
  type RadiusUsed,
  type SourceId,
} from '@landscreen/field-catalog';
import { UnknownFieldError } from './errors.js';

export type VectorEvaluator = Exclude<
  FieldEvaluator,
  Derived | ParcelRecord | ParcelOverlay | RadiusUsed | { kind: 'grid_value' | 'slope_degrees' | 'aspect_degrees' | 'aspect_cardinal' }
>;
export type GridEvaluator = Extract<FieldEvaluator, { kind: 'grid_value' | 'slope_degrees' | 'aspect_degrees' | 'aspect_cardinal' }>;

export interface Slot<E extends FieldEvaluator = FieldEvaluator> {
  /** Position in a location's answer arrays. */
  readonly index: number;
  readonly field: string;
  readonly evaluator: E;
}

/** A nearest-feature question shared by every field asking it (same filter, same limit). */
export interface NearestRequest {
  readonly filter: FeatureFilter | undefined;
  readonly maxDistanceM: number | undefined;
}

export interface VectorGroup {
  readonly source: SourceId;
  /** The one search radius of the group (0 when only containing-polygon fields ask). */
  readonly radiusM: number;
  /** Whether any field needs a radius search at all (else only nearest searches run). */
  readonly searches: boolean;
  readonly nearest: readonly NearestRequest[];
  /** Per slot, the index into `nearest` (or -1). */
  readonly slots: readonly (Slot<VectorEvaluator> & { readonly nearestRequest: number })[];
}

export interface GridGroup {
  readonly source: SourceId;
  readonly slots: readonly Slot<GridEvaluator>[];
}

export interface EvaluationPlan {
  readonly fields: readonly string[];
  /** Requested plus hidden input slots. */
  readonly slotCount: number;
  readonly vector: readonly VectorGroup[];
  readonly grid: readonly GridGroup[];
  readonly radiusUsed: readonly Slot<RadiusUsed>[];
  /** In dependency order (inputs are never derived themselves). */
  readonly derived: readonly (Slot<Derived> & { readonly inputIndex: number })[];
  readonly parcelRecord: readonly Slot<ParcelRecord>[];
  readonly parcelOverlay: readonly Slot<ParcelOverlay>[];
  readonly needsConus: boolean;
}

export function compilePlan(requested: readonly string[]): EvaluationPlan {
  const unknown = requested.filter((name) => !FIELD_BY_NAME.has(name));
  if (unknown.length > 0) throw new UnknownFieldError(unknown);
  const fields = [...new Set(requested)];
  const slots: Slot[] = fields.map((field, index) => ({ index, field, evaluator: evaluatorOf(FIELD_BY_NAME.get(field)!) }));
  const slotOf = new Map(slots.map((slot) => [slot.field, slot]));
  for (const slot of [...slots]) {
    if (slot.evaluator.kind !== 'derived' || slotOf.has(slot.evaluator.input)) continue;
    const input: Slot = { index: slots.length, field: slot.evaluator.input, evaluator: evaluatorOf(FIELD_BY_NAME.get(slot.evaluator.input)!) };
    slots.push(input);
    slotOf.set(input.field, input);
  }

  const vector = new Map<SourceId, Slot<VectorEvaluator>[]>();
  const grid = new Map<SourceId, Slot<GridEvaluator>[]>();
  const plan = {
    radiusUsed: [] as Slot<RadiusUsed>[],
    derived: [] as (Slot<Derived> & { inputIndex: number })[],
    parcelRecord: [] as Slot<ParcelRecord>[],
    parcelOverlay: [] as Slot<ParcelOverlay>[],
  };
  let needsConus = false;
  for (const slot of slots) {
    const evaluator = slot.evaluator;
    if ('conusOnly' in evaluator && evaluator.conusOnly) needsConus = true;
    switch (evaluator.kind) {
      case 'radius_used':
        plan.radiusUsed.push(slot as Slot<RadiusUsed>);
        break;
      case 'derived':
        plan.derived.push({ ...(slot as Slot<Derived>), inputIndex: slotOf.get(evaluator.input)!.index });
        break;
      case 'parcel_record':
        plan.parcelRecord.push(slot as Slot<ParcelRecord>);
        break;
      case 'parcel_overlay':
        plan.parcelOverlay.push(slot as Slot<ParcelOverlay>);
        break;
      case 'grid_value':
      case 'slope_degrees':
      case 'aspect_degrees':
      case 'aspect_cardinal':
        push(grid, evaluator.source, slot as Slot<GridEvaluator>);
        break;
      default:
        push(vector, evaluator.source, slot as Slot<VectorEvaluator>);
    }
  }
  return {
    fields,
    slotCount: slots.length,
    vector: [...vector].map(([source, group]) => vectorGroup(source, group)),
    grid: [...grid].map(([source, group]) => ({ source, slots: group })),
    ...plan,
    needsConus,
  };
}

function push<T>(groups: Map<SourceId, T[]>, source: SourceId, item: T): void {
  const group = groups.get(source);
  if (group) group.push(item);
  else groups.set(source, [item]);
}

function vectorGroup(source: SourceId, slots: Slot<VectorEvaluator>[]): VectorGroup {
  let radiusM = 0;
  let searches = false;
  const nearest: NearestRequest[] = [];
  const keyed = new Map<string, number>();
  const withRequests = slots.map((slot) => {
    const evaluator = slot.evaluator;
    switch (evaluator.kind) {
      case 'nearest_distance':
      case 'nearest_attribute':
      case 'voltage_basis': {
        const filter = 'filter' in evaluator ? evaluator.filter : undefined;
        const maxDistanceM = 'maxDistanceM' in evaluator ? evaluator.maxDistanceM : undefined;
        const key = JSON.stringify([filter ?? null, maxDistanceM ?? null]);
        let request = keyed.get(key);
        if (request === undefined) {
          request = nearest.push({ filter, maxDistanceM }) - 1;
          keyed.set(key, request);
        }
        return { ...slot, nearestRequest: request };
      }
      case 'count_within':
      case 'sum_within':
      case 'max_within':
        radiusM = Math.max(radiusM, evaluator.radiusM);
        searches = true;
        return { ...slot, nearestRequest: -1 };
      default:
        // Containing-polygon fields: a search of radius 0 finds exactly the polygons touching the point.
        searches = true;
        return { ...slot, nearestRequest: -1 };
    }
  });
  return { source, radiusM, searches, nearest, slots: withRequests };
}
