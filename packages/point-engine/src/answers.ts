// What the engine answers per location and field: a value or null, the machine-readable reason
// of every null (D36), and the provenance of every value (the layer versions it was computed
// from and the formula version of a derivation or overlay).

import type { SourceId } from '@landscreen/field-catalog';

/** Every reason a value can be null for, with its meaning (docs/layers.md lists them). */
export const NULL_REASON_MEANINGS = Object.freeze({
  no_coverage: "No layer version of the field's source is loaded (whatever the field's nullability), or no parcel index was given.",
  none_within_radius: 'A search-limited or radius field found nothing within its radius.',
  none_found: 'The layer is loaded but holds no feature the field looks for (an empty layer, or none passing its filter).',
  not_inside: 'The point is in no polygon of the source.',
  outside_conus: 'A CONUS-only field at a point outside the contiguous United States.',
  outside_coverage: 'The point is outside the extent of the grid.',
  no_data: "The grid's cell at the point holds its nodata value.",
  not_published: 'The matched feature (or parcel) does not publish the property the field reads.',
  flat: 'Aspect on flat ground, where no direction is downhill.',
  input_null: 'A derivation whose input is null at the point (an input without coverage passes on no_coverage).',
  no_parcel: 'No parcel was matched at the point or within the bounded radius.',
});
export type NullReason = keyof typeof NULL_REASON_MEANINGS;
export const NULL_REASONS = Object.freeze(Object.keys(NULL_REASON_MEANINGS) as NullReason[]);

export type FieldValue = string | number | boolean | null;

export interface LayerRef {
  readonly source: SourceId;
  readonly layer_version: string;
}

export interface Provenance {
  /** The layer versions (or the parcel vintage, as source parcel_vendor) the value came from. */
  readonly layers: readonly LayerRef[];
  /** The formula version of a derivation or parcel overlay; null for a value read from a layer. */
  readonly formula_version: number | null;
}

/**
 * The slots of the location being evaluated, aligned with the plan's slots (requested fields,
 * then hidden derivation inputs). Evaluators write here; the engine then packs the row.
 */
export interface LocationAnswer {
  readonly values: FieldValue[];
  /** null where the value is not null. */
  readonly reasons: (NullReason | null)[];
  /** null only where no layer was involved (no_coverage). */
  readonly provenance: (Provenance | null)[];
}

/**
 * The answers to N locations x M fields, packed row by row (location n, field f at n·M + f): one
 * value array, a reason code array and a provenance id array instead of three arrays per
 * location, because holding millions of small arrays until the answer is returned made garbage
 * collection the engine's largest cost.
 */
export class EngineAnswer {
  constructor(
    readonly fields: readonly string[],
    /** Number of locations. */
    readonly size: number,
    readonly values: FieldValue[],
    /** 0: not null; else 1 + the index of the reason in NULL_REASONS. */
    readonly reasonCodes: Uint8Array,
    /** 0: none; else 1 + the index in `provenances`. */
    readonly provenanceIds: Uint32Array,
    readonly provenances: readonly Provenance[],
  ) {}

  value(location: number, field: number): FieldValue {
    return this.values[location * this.fields.length + field];
  }

  reason(location: number, field: number): NullReason | null {
    const code = this.reasonCodes[location * this.fields.length + field];
    return code === 0 ? null : NULL_REASONS[code - 1];
  }

  provenance(location: number, field: number): Provenance | null {
    const id = this.provenanceIds[location * this.fields.length + field];
    return id === 0 ? null : this.provenances[id - 1];
  }

  /** One location's answers keyed by field name, the shape D34's results take. */
  record(location: number) {
    const values: Record<string, FieldValue> = {};
    const null_reasons: Record<string, NullReason> = {};
    const provenance: Record<string, Provenance> = {};
    this.fields.forEach((field, f) => {
      values[field] = this.value(location, f);
      const reason = this.reason(location, f);
      if (reason !== null) null_reasons[field] = reason;
      const source = this.provenance(location, f);
      if (source !== null) provenance[field] = source;
    });
    return { values, null_reasons, provenance };
  }
}

/** Packs each location's slots into the answer's flat arrays. */
export class AnswerPacker {
  private readonly values: FieldValue[];
  private readonly reasonCodes: Uint8Array;
  private readonly provenanceIds: Uint32Array;
  private readonly provenances: Provenance[] = [];
  private readonly provenanceIdOf = new Map<Provenance, number>();
  /** Per field, the provenance packed last and its id: most fields repeat theirs. */
  private readonly lastProvenance: (Provenance | null)[];
  private readonly lastProvenanceId: Uint32Array;
  private row = 0;

  constructor(
    private readonly fields: readonly string[],
    private readonly size: number,
  ) {
    // Filled by push, row after row: `new Array(n)` of a million slots would be a slow dictionary.
    this.values = [];
    this.reasonCodes = new Uint8Array(size * fields.length);
    this.provenanceIds = new Uint32Array(size * fields.length);
    this.lastProvenance = new Array(fields.length).fill(null);
    this.lastProvenanceId = new Uint32Array(fields.length);
  }

  pack(slots: LocationAnswer): void {
    const width = this.fields.length;
    const base = this.row * width;
    for (let f = 0; f < width; f++) {
      this.values.push(slots.values[f]);
      const reason = slots.reasons[f];
      this.reasonCodes[base + f] = reason === null ? 0 : REASON_CODES[reason];
      const provenance = slots.provenance[f];
      if (provenance === null) continue;
      if (provenance !== this.lastProvenance[f]) {
        let id = this.provenanceIdOf.get(provenance);
        if (id === undefined) {
          id = this.provenances.push(provenance);
          this.provenanceIdOf.set(provenance, id);
        }
        this.lastProvenance[f] = provenance;
        this.lastProvenanceId[f] = id;
      }
      this.provenanceIds[base + f] = this.lastProvenanceId[f];
    }
    this.row++;
  }

  finish(): EngineAnswer {
    return new EngineAnswer(this.fields, this.size, this.values, this.reasonCodes, this.provenanceIds, this.provenances);
  }
}

const REASON_CODES = Object.fromEntries(NULL_REASONS.map((reason, i) => [reason, i + 1])) as Record<NullReason, number>;
