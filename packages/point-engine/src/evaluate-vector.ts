// Answers one vector source's fields at one location from a single radius search (plan.ts) and
// the nearest-feature searches its fields share.
//
// The catalog's evaluators are objects of many shapes; reading their properties in this loop
// made every access megamorphic (measured: most of the engine's time). So each group's slots are
// compiled once per evaluation into objects of one shape, with the layer's columns, filter masks
// and rank arrays already resolved.

import type { FieldEvaluator } from '@landscreen/field-catalog';
import type { FieldValue, LocationAnswer, NullReason, Provenance } from './answers.js';
import type { PropertyValue } from './coerce.js';
import { distanceM, RULER_EXACT_WITHIN_M, type Ruler } from './geodesy.js';
import type { VectorEvaluator, VectorGroup } from './plan.js';
import { SQUARE_METERS_PER_ACRE } from './polygon-area.js';
import { Hits, type Nearest, type VectorLayerIndex } from './vector-index.js';

/** Per-location facts shared by every group (computed on first use). */
export interface LocationContext {
  readonly lon: number;
  readonly lat: number;
  readonly ruler: Ruler;
  inConus(): boolean;
}

const enum Kind {
  NearestDistance,
  NearestAttribute,
  VoltageBasis,
  CountWithin,
  SumWithin,
  MaxWithin,
  Contains,
  ContainingAttribute,
  ContainingRanked,
  ContainingJoined,
  PolygonArea,
}

const KINDS: Record<VectorEvaluator['kind'], Kind> = {
  nearest_distance: Kind.NearestDistance,
  nearest_attribute: Kind.NearestAttribute,
  voltage_basis: Kind.VoltageBasis,
  count_within: Kind.CountWithin,
  sum_within: Kind.SumWithin,
  max_within: Kind.MaxWithin,
  contains: Kind.Contains,
  containing_attribute: Kind.ContainingAttribute,
  containing_ranked: Kind.ContainingRanked,
  containing_joined: Kind.ContainingJoined,
  polygon_area: Kind.PolygonArea,
};

/** One shape for every slot (every field always present). */
interface CompiledSlot {
  readonly index: number;
  readonly kind: Kind;
  readonly conusOnly: boolean;
  readonly nearestRequest: number;
  readonly limited: boolean;
  readonly radiusM: number;
  readonly mask: Uint8Array | null;
  readonly column: readonly PropertyValue[];
  readonly classColumn: readonly PropertyValue[];
  readonly ranks: Float64Array | null;
  readonly rankList: readonly string[];
  readonly whenNotInside: string | null;
  readonly positive: boolean;
  readonly blankWhenOnlyUnfiltered: boolean;
  readonly divisor: number;
}

const NO_COLUMN: readonly PropertyValue[] = [];

function compileSlot(slot: VectorGroup['slots'][number], index: VectorLayerIndex): CompiledSlot {
  const e: FieldEvaluator = slot.evaluator;
  const field = <K extends string>(key: K): unknown => (e as unknown as Record<K, unknown>)[key];
  const filter = field('filter') as Parameters<VectorLayerIndex['mask']>[0] | undefined;
  const property = field('property') as string | undefined;
  const rank = field('rank');
  let divisor = 1;
  if (e.kind === 'polygon_area' && e.unit === 'acres') divisor = SQUARE_METERS_PER_ACRE;
  if (e.kind === 'sum_within' && e.perSquareKm) divisor = (Math.PI * e.radiusM * e.radiusM) / 1e6;
  return {
    index: slot.index,
    kind: KINDS[slot.evaluator.kind],
    conusOnly: field('conusOnly') === true,
    nearestRequest: slot.nearestRequest,
    limited: field('maxDistanceM') !== undefined,
    radiusM: (field('radiusM') as number | undefined) ?? 0,
    mask: filter ? index.mask(filter) : null,
    column: e.kind === 'voltage_basis' ? index.column(e.numberProperty) : property ? index.column(property) : NO_COLUMN,
    classColumn: e.kind === 'voltage_basis' ? index.column(e.classProperty) : NO_COLUMN,
    ranks: e.kind === 'max_within' ? index.ranks(e.property, e.rank === 'number' ? numberRank : voltageClassRank) : null,
    rankList: Array.isArray(rank) ? (rank as string[]) : [],
    whenNotInside: (field('whenNotInside') as string | undefined) ?? null,
    positive: field('as') === 'positive',
    blankWhenOnlyUnfiltered: field('blankWhenOnlyUnfiltered') === true,
    divisor,
  };
}

export class VectorGroupEvaluator {
  private readonly hits = new Hits();
  private readonly slots: readonly CompiledSlot[];
  private readonly nearestFound: (Nearest | null)[];
  private readonly nearestSearched: Uint8Array;
  /** One result object per nearest request, filled again at every location (no garbage per search). */
  private readonly nearestSlots: Nearest[];
  private readonly masks: (Uint8Array | null)[];
  private readonly containing: number[] = [];
  private readonly bySmallerArea = (a: number, b: number) => this.index.areaM2(a)! - this.index.areaM2(b)! || a - b;
  private containingSorted = false;

  constructor(
    private readonly group: VectorGroup,
    private readonly index: VectorLayerIndex,
    private readonly provenance: Provenance,
  ) {
    this.slots = group.slots.map((slot) => compileSlot(slot, index));
    this.nearestFound = new Array(group.nearest.length).fill(null);
    this.nearestSearched = new Uint8Array(group.nearest.length);
    this.nearestSlots = group.nearest.map(() => ({ id: -1, distance: 0, lon: 0, lat: 0 }));
    this.masks = group.nearest.map((request) => (request.filter ? index.mask(request.filter) : null));
  }

  evaluate(at: LocationContext, answer: LocationAnswer): void {
    const { group, index, hits } = this;
    if (group.searches) index.within(at.lon, at.lat, group.radiusM, at.ruler, hits);
    else hits.reset();
    this.nearestSearched.fill(0);
    const containing = this.containing;
    containing.length = 0;
    this.containingSorted = false;
    const polygonal = index.polygonal;
    for (let i = 0; i < hits.count; i++) {
      if (hits.distances[i] === 0 && polygonal[hits.ids[i]] === 1) containing.push(hits.ids[i]);
    }

    const { reasons, provenance } = answer;
    for (const slot of this.slots) {
      const i = slot.index;
      provenance[i] = this.provenance;
      answer.clearValue(i);
      reasons[i] = null;
      if (slot.conusOnly && !at.inConus()) {
        reasons[i] = 'outside_conus';
        continue;
      }
      const mask = slot.mask;
      switch (slot.kind) {
        case Kind.NearestDistance:
        case Kind.NearestAttribute:
        case Kind.VoltageBasis: {
          const nearest = this.nearest(slot.nearestRequest, at);
          if (nearest === null) reasons[i] = slot.limited ? 'none_within_radius' : 'none_found';
          else if (slot.kind === Kind.NearestDistance) {
            answer.setNumber(i, nearest.distance < RULER_EXACT_WITHIN_M ? nearest.distance : distanceM(at.lon, at.lat, nearest.lon, nearest.lat));
          } else if (slot.kind === Kind.NearestAttribute) {
            this.set(answer, i, slot.column[nearest.id]);
          } else {
            const kv = slot.column[nearest.id];
            answer.setValue(i, typeof kv === 'number' && kv > 0 ? 'numeric' : slot.classColumn[nearest.id] !== null ? 'class_band' : 'not_published');
          }
          break;
        }
        case Kind.CountWithin: {
          let count = 0;
          for (let h = 0; h < hits.count; h++) {
            if (hits.distances[h] <= slot.radiusM && (mask === null || mask[hits.ids[h]] === 1)) count++;
          }
          answer.setNumber(i, count);
          break;
        }
        case Kind.SumWithin: {
          let sum = 0;
          for (let h = 0; h < hits.count; h++) {
            if (hits.distances[h] > slot.radiusM) continue;
            const v = slot.column[hits.ids[h]];
            if (typeof v === 'number') sum += v;
          }
          answer.setNumber(i, sum / slot.divisor);
          break;
        }
        case Kind.MaxWithin:
          this.maxWithin(slot, answer);
          break;
        case Kind.Contains: {
          let inside = false;
          for (const id of containing) if (mask === null || mask[id] === 1) inside = true;
          answer.setValue(i, inside);
          break;
        }
        case Kind.ContainingAttribute: {
          const id = this.smallestContaining(mask);
          if (id === -1) {
            if (slot.whenNotInside !== null) answer.setValue(i, slot.whenNotInside);
            else reasons[i] = 'not_inside';
            break;
          }
          const value = slot.column[id];
          this.set(answer, i, slot.positive && value !== null ? typeof value === 'number' && value > 0 : value);
          break;
        }
        case Kind.ContainingRanked:
          this.containingRanked(slot, answer);
          break;
        case Kind.ContainingJoined: {
          let inside = false;
          const distinct = new Set<string>();
          for (const id of containing) {
            if (mask !== null && mask[id] === 0) continue;
            inside = true;
            const v = slot.column[id];
            if (v !== null) distinct.add(String(v));
          }
          if (!inside) reasons[i] = 'not_inside';
          else this.set(answer, i, distinct.size === 0 ? null : [...distinct].sort().join(', '));
          break;
        }
        case Kind.PolygonArea: {
          const id = this.smallestContaining(null);
          if (id === -1) reasons[i] = 'not_inside';
          else answer.setNumber(i, index.areaM2(id)! / slot.divisor);
          break;
        }
      }
    }
  }

  /** A feature's property as the value; absent: null `not_published`. */
  private set(answer: LocationAnswer, i: number, value: FieldValue): void {
    answer.setValue(i, value);
    answer.reasons[i] = value === null ? 'not_published' : null;
  }

  private nearest(request: number, at: LocationContext): Nearest | null {
    if (this.nearestSearched[request] === 1) return this.nearestFound[request];
    const { maxDistanceM } = this.group.nearest[request];
    const mask = this.masks[request];
    const { index, hits, group } = this;
    // The radius search already holds every feature within the group's radius: a nearest found
    // there is the nearest overall.
    let bestId = -1;
    let bestDistance = Infinity;
    for (let i = 0; i < hits.count; i++) {
      const id = hits.ids[i];
      if (mask !== null && mask[id] === 0) continue;
      const d = hits.distances[i];
      if (d < bestDistance || (d === bestDistance && id < bestId)) {
        bestId = id;
        bestDistance = d;
      }
    }
    let found: Nearest | null;
    if (bestId !== -1 && bestDistance < RULER_EXACT_WITHIN_M) {
      if (maxDistanceM !== undefined && bestDistance > maxDistanceM) found = null;
      else {
        found = this.nearestSlots[request];
        found.id = bestId;
        found.distance = bestDistance;
        found.lon = 0;
        found.lat = 0;
      }
    } else if (group.searches && maxDistanceM !== undefined && maxDistanceM <= group.radiusM) found = null;
    else found = index.nearest(at.lon, at.lat, at.ruler, mask, 0, maxDistanceM, this.nearestSlots[request]);
    this.nearestFound[request] = found;
    this.nearestSearched[request] = 1;
    return found;
  }

  /** The containing polygon passing `mask` with the smallest area (ties: lowest position), or -1. */
  private smallestContaining(mask: Uint8Array | null): number {
    if (!this.containingSorted && this.containing.length > 1) this.containing.sort(this.bySmallerArea);
    this.containingSorted = true;
    for (const id of this.containing) if (mask === null || mask[id] === 1) return id;
    return -1;
  }

  private maxWithin(slot: CompiledSlot, answer: LocationAnswer): void {
    const { hits } = this;
    const ranks = slot.ranks!;
    let any = false;
    let bestRank = -Infinity;
    let bestId = -1;
    for (let h = 0; h < hits.count; h++) {
      if (hits.distances[h] > slot.radiusM) continue;
      any = true;
      const id = hits.ids[h];
      const rank = ranks[id];
      if (rank > bestRank || (rank === bestRank && id < bestId)) {
        bestRank = rank;
        bestId = id;
      }
    }
    if (!any) answer.reasons[slot.index] = 'none_within_radius';
    else this.set(answer, slot.index, bestId === -1 ? null : slot.column[bestId]);
  }

  private containingRanked(slot: CompiledSlot, answer: LocationAnswer): void {
    const mask = slot.mask;
    let bestRank = Infinity;
    let passing = false;
    for (const id of this.containing) {
      if (mask !== null && mask[id] === 0) continue;
      passing = true;
      const value = slot.column[id];
      const rank = value === null ? -1 : slot.rankList.indexOf(String(value));
      if (rank !== -1 && rank < bestRank) bestRank = rank;
    }
    if (!passing) {
      if (slot.blankWhenOnlyUnfiltered && this.containing.length > 0) answer.setValue(slot.index, '');
      else answer.reasons[slot.index] = 'not_inside';
      return;
    }
    this.set(answer, slot.index, bestRank === Infinity ? null : slot.rankList[bestRank]);
  }
}

function numberRank(value: FieldValue): number | null {
  return typeof value === 'number' ? value : null;
}

/** A HIFLD voltage class band ranked by its first number; "UNDER 100" just below 100; none: unranked. */
export function voltageClassRank(value: FieldValue): number | null {
  if (typeof value !== 'string') return null;
  const number = /\d+(\.\d+)?/.exec(value);
  if (!number) return null;
  return /^\s*under\b/i.test(value) ? Number(number[0]) - 0.5 : Number(number[0]);
}

export function setNull(answer: LocationAnswer, index: number, reason: NullReason): void {
  answer.clearValue(index);
  answer.reasons[index] = reason;
}
