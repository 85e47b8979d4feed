// The engine: the current layer index of each source, and N locations x M fields answered from
// them with a reason for every null and the provenance of every value. Layer indexes are
// immutable; loading a new version of a source swaps it in whole, so an evaluation already
// running keeps the versions it started with.

import { layerSource, type SourceId } from '@landscreen/field-catalog';
import { AnswerPacker, LocationAnswer, type EngineAnswer, type LayerRef, type Provenance } from './answers.js';
import { isInConus } from './conus.js';
import { LayerBuildError } from './errors.js';
import { evaluateGridGroup } from './evaluate-grid.js';
import { setNull, VectorGroupEvaluator, type LocationContext } from './evaluate-vector.js';
import { rulerAt, type Ruler } from './geodesy.js';
import { GridLayerIndex, type GridInput, type GridMosaicInput, type HeldBlocks } from './grid-index.js';
import { evaluateParcelOverlays, evaluateParcelRecord, type ParcelMatch } from './parcel-fields.js';
import { compilePlan, type EvaluationPlan } from './plan.js';
import { answerOrder } from './spatial-order.js';
import { VectorLayerIndex, type FeatureInput } from './vector-index.js';

export type LayerIndex = VectorLayerIndex | GridLayerIndex;

export interface Location {
  readonly lat: number;
  readonly lon: number;
}

export interface EvaluateOptions {
  /**
   * The parcel matched to each location (null: none found), aligned with the locations. Absent:
   * no parcel index is available, and parcel fields answer `no_coverage`.
   */
  readonly parcels?: readonly (ParcelMatch | null)[];
  /**
   * The blocks of grids not held in memory whole, loaded for these locations (Engine.loadGridBlocks;
   * evaluateLoaded does both). Absent for a grid: its resident blocks, and an error if one is missing.
   */
  readonly gridBlocks?: ReadonlyMap<SourceId, HeldGridBlocks>;
}

/** The blocks of one grid layer version held for an evaluation (null: all its blocks are resident). */
export interface HeldGridBlocks {
  readonly version: string;
  readonly blocks: HeldBlocks | null;
}

/** Indexes one layer version of a vector source (points, lines, polygons or mixed). */
export function buildVectorLayer(source: SourceId, version: string, features: Iterable<FeatureInput>): VectorLayerIndex {
  const declaration = layerSource(source);
  if (declaration.geometry === 'grid') throw new LayerBuildError(`${source} is a grid source; load it with buildGridLayer`, null);
  return VectorLayerIndex.build(declaration, version, features);
}

/** Indexes one layer version of a grid source held whole in memory. */
export function buildGridLayer(source: SourceId, version: string, grid: GridInput): GridLayerIndex {
  if (layerSource(source).geometry !== 'grid') throw new LayerBuildError(`${source} is not a grid source`, null);
  return GridLayerIndex.whole(source, version, grid);
}

/** Indexes one layer version of a grid source of one or more tiles whose cells come in blocks from a store. */
export function buildGridMosaic(source: SourceId, version: string, mosaic: GridMosaicInput): GridLayerIndex {
  if (layerSource(source).geometry !== 'grid') throw new LayerBuildError(`${source} is not a grid source`, null);
  return new GridLayerIndex(source, version, mosaic);
}

export class Engine {
  private readonly layers = new Map<SourceId, LayerIndex>();
  private readonly provenances = new WeakMap<LayerIndex, Provenance>();
  private readonly plans = new Map<string, EvaluationPlan>();

  /** Makes `index` the current layer of its source. */
  load(index: LayerIndex): void {
    this.layers.set(index.source, index);
  }

  unload(source: SourceId): void {
    this.layers.delete(source);
  }

  layer(source: SourceId): LayerIndex | undefined {
    return this.layers.get(source);
  }

  loaded(): LayerRef[] {
    return [...this.layers.values()].map((index) => ({ source: index.source, layer_version: index.version }));
  }

  /** The compiled plan of a field list (cached: callers ask for the same lists again and again). */
  plan(fields: readonly string[]): EvaluationPlan {
    const key = fields.join(',');
    let plan = this.plans.get(key);
    if (!plan) {
      plan = compilePlan(fields);
      if (this.plans.size > 1000) this.plans.clear();
      this.plans.set(key, plan);
    }
    return plan;
  }

  /**
   * The blocks the locations' grid fields read, of every grid layer not held whole, loaded and
   * held for one evaluation (the layers being the engine's now).
   */
  async loadGridBlocks(locations: readonly Location[], fields: readonly string[] | EvaluationPlan): Promise<Map<SourceId, HeldGridBlocks>> {
    const plan = this.planOf(fields);
    const held = new Map<SourceId, HeldGridBlocks>();
    for (const group of plan.grid) {
      const index = this.layers.get(group.source);
      if (index?.kind !== 'grid' || index.resident) continue;
      const needs = { value: group.slots.some((slot) => slot.evaluator.kind === 'grid_value'), terrain: group.slots.some((slot) => slot.evaluator.kind !== 'grid_value') };
      held.set(group.source, { version: index.version, blocks: await index.hold(locations, needs) });
    }
    return held;
  }

  /** `evaluate` after loading the grid blocks it reads (grids too large to hold whole are read from storage block by block). */
  async evaluateLoaded(locations: readonly Location[], fields: readonly string[] | EvaluationPlan, options: EvaluateOptions = {}): Promise<EngineAnswer> {
    const plan = this.planOf(fields);
    for (;;) {
      const gridBlocks = await this.loadGridBlocks(locations, plan);
      // A newer version of a grid loaded meanwhile (by another request) has blocks of its own: load those.
      const current = [...gridBlocks].every(([source, held]) => this.layers.get(source)?.version === held.version);
      if (current) return this.evaluate(locations, plan, { ...options, gridBlocks });
    }
  }

  private planOf(fields: readonly string[] | EvaluationPlan): EvaluationPlan {
    return Array.isArray(fields) ? this.plan(fields as readonly string[]) : (fields as EvaluationPlan);
  }

  evaluate(locations: readonly Location[], fields: readonly string[] | EvaluationPlan, options: EvaluateOptions = {}): EngineAnswer {
    const plan = this.planOf(fields);
    const layers = new Map(this.layers);
    const vector = plan.vector.map((group) => {
      const index = layers.get(group.source);
      return index?.kind === 'vector' ? new VectorGroupEvaluator(group, index, this.provenanceOf(index)) : null;
    });
    const grid = plan.grid.map((group) => {
      const index = layers.get(group.source);
      return index?.kind === 'grid' ? { index, view: index.viewOf(heldFor(index, options.gridBlocks)) } : null;
    });
    const vectorLayer = (source: SourceId) => {
      const index = layers.get(source);
      return index?.kind === 'vector' ? index : undefined;
    };

    const packer = new AnswerPacker(plan.fields, locations.length);
    // One mutable context and one set of slots for every location, packed row by row.
    const at = new LocationState();
    const parcelSlots = [...plan.parcelRecord, ...plan.parcelOverlay];
    const answer = new LocationAnswer(plan.slotCount);
    const order = answerOrder(
      Float64Array.from(locations, (location) => location.lon),
      Float64Array.from(locations, (location) => location.lat),
      locations.length,
    );
    for (let k = 0; k < order.length; k++) {
      const n = order[k];
      at.moveTo(locations[n].lon, locations[n].lat);
      answer.clear();
      for (let g = 0; g < plan.vector.length; g++) {
        const evaluator = vector[g];
        if (evaluator) evaluator.evaluate(at, answer);
        else for (const slot of plan.vector[g].slots) setNull(answer, slot.index, 'no_coverage');
      }
      for (let g = 0; g < plan.grid.length; g++) {
        const layer = grid[g];
        if (layer) evaluateGridGroup(plan.grid[g], layer.index, layer.view, this.provenanceOf(layer.index), at, answer);
        else for (const slot of plan.grid[g].slots) setNull(answer, slot.index, 'no_coverage');
      }
      for (const slot of plan.radiusUsed) {
        const source = slot.evaluator.source;
        const index = source === undefined ? undefined : layers.get(source);
        if (source !== undefined && !index) {
          setNull(answer, slot.index, 'no_coverage');
          continue;
        }
        answer.setNumber(slot.index, slot.evaluator.radiusM);
        answer.provenance[slot.index] = index ? this.provenanceOf(index) : SERVICE_PARAMETER;
      }
      for (const slot of plan.derived) {
        const inputProvenance = answer.provenance[slot.inputIndex];
        if (!answer.isNumber(slot.inputIndex)) {
          const inputReason = answer.reasons[slot.inputIndex];
          setNull(answer, slot.index, inputReason === 'no_coverage' ? 'no_coverage' : 'input_null');
        } else {
          answer.setNumber(slot.index, answer.numbers[slot.inputIndex] * slot.evaluator.factor);
        }
        answer.provenance[slot.index] = inputProvenance && this.derivedProvenance(inputProvenance, slot.evaluator.formula_version);
      }
      if (parcelSlots.length > 0) {
        const match = options.parcels ? options.parcels[n] : undefined;
        if (!match) {
          const reason = options.parcels ? 'no_parcel' : 'no_coverage';
          for (const slot of parcelSlots) setNull(answer, slot.index, reason);
        } else {
          evaluateParcelRecord(plan.parcelRecord, match, answer);
          evaluateParcelOverlays(plan.parcelOverlay, match, vectorLayer, answer);
        }
      }
      // Hidden derivation inputs (after the requested fields) are not packed.
      packer.pack(answer, n);
    }
    return packer.finish();
  }

  private readonly derivedProvenances = new WeakMap<Provenance, Provenance>();

  /** The provenance of a derivation: its input's layers and its formula version (one object per input layer). */
  private derivedProvenance(input: Provenance, formulaVersion: number): Provenance {
    let provenance = this.derivedProvenances.get(input);
    if (!provenance || provenance.formula_version !== formulaVersion) {
      provenance = Object.freeze({ layers: input.layers, formula_version: formulaVersion });
      this.derivedProvenances.set(input, provenance);
    }
    return provenance;
  }

  private provenanceOf(index: LayerIndex): Provenance {
    let provenance = this.provenances.get(index);
    if (!provenance) {
      provenance = Object.freeze({ layers: Object.freeze([{ source: index.source, layer_version: index.version }]), formula_version: null });
      this.provenances.set(index, provenance);
    }
    return provenance;
  }
}

/** The blocks held for this version of a grid; null (its resident blocks) when none were. */
function heldFor(index: GridLayerIndex, gridBlocks: EvaluateOptions['gridBlocks']): HeldBlocks | null {
  const held = gridBlocks?.get(index.source);
  if (held === undefined) return null;
  if (held.version !== index.version) throw new Error(`grid blocks held for ${index.source} version ${held.version}, evaluated on ${index.version}`);
  return held.blocks;
}

/** The location being evaluated; the CONUS test runs at most once per location, when a field needs it. */
class LocationState implements LocationContext {
  lon = 0;
  lat = 0;
  ruler: Ruler = rulerAt(0);
  private conus: boolean | undefined;

  moveTo(lon: number, lat: number): void {
    this.lon = lon;
    this.lat = lat;
    this.ruler = rulerAt(lat);
    this.conus = undefined;
  }

  inConus(): boolean {
    this.conus ??= isInConus(this.lon, this.lat);
    return this.conus;
  }
}

const SERVICE_PARAMETER: Provenance = Object.freeze({ layers: Object.freeze([]), formula_version: null });
