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
  no_data: 'No tile of the grid holds data at the point (its nodata value, or a block the file has no bytes for).',
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
 * How a value is held: numbers (and booleans, and string ids) in a Float64Array beside a kind
 * byte, because a number written into an ordinary array is a heap object of its own — a million
 * field-values made a million of them for the garbage collector (measured: its largest cost).
 */
export const enum ValueKind {
  Null = 0,
  Number = 1,
  False = 2,
  True = 3,
  String = 4,
}

/**
 * The slots of the location being evaluated, aligned with the plan's slots (requested fields,
 * then hidden derivation inputs). Evaluators write here; the engine then packs the row.
 */
export class LocationAnswer {
  readonly kinds: Uint8Array;
  readonly numbers: Float64Array;
  /** The string of a String slot (other slots: stale). */
  readonly strings: (string | null)[];
  /** null where the value is not null. */
  readonly reasons: (NullReason | null)[];
  /** null only where no layer was involved (no_coverage). */
  readonly provenance: (Provenance | null)[];

  constructor(size: number) {
    this.kinds = new Uint8Array(size);
    this.numbers = new Float64Array(size);
    this.strings = new Array(size).fill(null);
    this.reasons = new Array(size).fill(null);
    this.provenance = new Array(size).fill(null);
  }

  clear(): void {
    this.kinds.fill(ValueKind.Null);
    this.reasons.fill(null);
    this.provenance.fill(null);
  }

  setNumber(i: number, value: number): void {
    this.kinds[i] = ValueKind.Number;
    this.numbers[i] = value;
  }

  /** Any value; null leaves the reason to the caller. */
  setValue(i: number, value: FieldValue): void {
    if (typeof value === 'number') this.setNumber(i, value);
    else if (typeof value === 'string') {
      this.kinds[i] = ValueKind.String;
      this.strings[i] = value;
    } else if (value === null) this.kinds[i] = ValueKind.Null;
    else this.kinds[i] = value ? ValueKind.True : ValueKind.False;
  }

  /** Null, without touching the reason. */
  clearValue(i: number): void {
    this.kinds[i] = ValueKind.Null;
  }

  isNumber(i: number): boolean {
    return this.kinds[i] === ValueKind.Number;
  }

  value(i: number): FieldValue {
    switch (this.kinds[i]) {
      case ValueKind.Number:
        return this.numbers[i];
      case ValueKind.String:
        return this.strings[i];
      case ValueKind.True:
        return true;
      case ValueKind.False:
        return false;
      default:
        return null;
    }
  }
}

/** What receives one location's answers from EngineAnswer.readRow: one call per field, in field order. */
export interface AnswerRowSink {
  number(field: number, value: number): void;
  string(field: number, value: string): void;
  bool(field: number, value: boolean): void;
  /** A null value and why (null only where the evaluator gave no reason). */
  null(field: number, reason: NullReason | null): void;
}

/**
 * The answers to N locations x M fields, packed row by row (location n, field f at n·M + f): a
 * kind byte and a number per value (strings as ids into one table), a reason code array and a
 * provenance id array instead of arrays per location, because holding millions of small arrays
 * (or boxed numbers) until the answer is returned made garbage collection the engine's largest cost.
 */
export class EngineAnswer {
  constructor(
    readonly fields: readonly string[],
    /** Number of locations. */
    readonly size: number,
    /** ValueKind per value. */
    readonly kinds: Uint8Array,
    /** The number of a Number value, the id in `strings` of a String value. */
    readonly numbers: Float64Array,
    readonly strings: readonly string[],
    /** 0: not null; else 1 + the index of the reason in NULL_REASONS. */
    readonly reasonCodes: Uint8Array,
    /** 0: none; else 1 + the index in `provenances`. */
    readonly provenanceIds: Uint32Array,
    readonly provenances: readonly Provenance[],
  ) {}

  value(location: number, field: number): FieldValue {
    const at = location * this.fields.length + field;
    switch (this.kinds[at]) {
      case ValueKind.Number:
        return this.numbers[at];
      case ValueKind.String:
        return this.strings[this.numbers[at]];
      case ValueKind.True:
        return true;
      case ValueKind.False:
        return false;
      default:
        return null;
    }
  }

  /**
   * One location's answers handed to `sink` in field order, each by its kind: the one decoding of
   * the packed arrays that every writer of results (and prepare's stored facts) goes through, so
   * none of them depends on how values are packed.
   */
  readRow(location: number, sink: AnswerRowSink): void {
    const width = this.fields.length;
    const base = location * width;
    for (let f = 0; f < width; f++) {
      const at = base + f;
      switch (this.kinds[at]) {
        case ValueKind.Number:
          sink.number(f, this.numbers[at]);
          break;
        case ValueKind.String:
          sink.string(f, this.strings[this.numbers[at]]);
          break;
        case ValueKind.True:
          sink.bool(f, true);
          break;
        case ValueKind.False:
          sink.bool(f, false);
          break;
        default: {
          const code = this.reasonCodes[at];
          sink.null(f, code === 0 ? null : NULL_REASONS[code - 1]);
        }
      }
    }
  }

  /**
   * Whether the value at (location, field) carries the provenance of id `id` (an index into
   * `provenances` plus one; 0 for none): a reader comparing many values with one provenance
   * compares ids, not objects.
   */
  hasProvenanceId(location: number, field: number, id: number): boolean {
    return this.provenanceIds[location * this.fields.length + field] === id;
  }

  /** Every value, location after location (made on demand: the packed arrays are what is kept). */
  get values(): FieldValue[] {
    const out: FieldValue[] = [];
    for (let n = 0; n < this.size; n++) for (let f = 0; f < this.fields.length; f++) out.push(this.value(n, f));
    return out;
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
  private readonly kinds: Uint8Array;
  private readonly numbers: Float64Array;
  private readonly strings: string[] = [];
  private readonly stringIds = new Map<string, number>();
  private readonly reasonCodes: Uint8Array;
  private readonly provenanceIds: Uint32Array;
  private readonly provenances: Provenance[] = [];
  private readonly provenanceIdOf = new Map<Provenance, number>();
  /** Per field, the provenance packed last and its id: most fields repeat theirs. */
  private readonly lastProvenance: (Provenance | null)[];
  private readonly lastProvenanceId: Uint32Array;
  /** Per field, the string packed last and its id. */
  private readonly lastString: (string | null)[];
  private readonly lastStringId: Uint32Array;
  private row = 0;

  constructor(
    private readonly fields: readonly string[],
    private readonly size: number,
  ) {
    this.kinds = new Uint8Array(size * fields.length);
    this.numbers = new Float64Array(size * fields.length);
    this.reasonCodes = new Uint8Array(size * fields.length);
    this.provenanceIds = new Uint32Array(size * fields.length);
    this.lastProvenance = new Array(fields.length).fill(null);
    this.lastProvenanceId = new Uint32Array(fields.length);
    this.lastString = new Array(fields.length).fill(null);
    this.lastStringId = new Uint32Array(fields.length);
  }

  /** Packs a location's answer at its row (the engine may answer locations in another order). */
  pack(slots: LocationAnswer, row = this.row++): void {
    const width = this.fields.length;
    const base = row * width;
    const { kinds, numbers } = slots;
    for (let f = 0; f < width; f++) {
      const kind = kinds[f];
      this.kinds[base + f] = kind;
      if (kind === ValueKind.Number) this.numbers[base + f] = numbers[f];
      else if (kind === ValueKind.String) {
        // Neighbouring locations (the engine answers them in curve order) mostly repeat a field's string.
        const value = slots.strings[f]!;
        if (value !== this.lastString[f]) {
          this.lastString[f] = value;
          this.lastStringId[f] = this.stringId(value);
        }
        this.numbers[base + f] = this.lastStringId[f];
      }
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
  }

  private stringId(value: string): number {
    let id = this.stringIds.get(value);
    if (id === undefined) {
      id = this.strings.push(value) - 1;
      this.stringIds.set(value, id);
    }
    return id;
  }

  finish(): EngineAnswer {
    return new EngineAnswer(this.fields, this.size, this.kinds, this.numbers, this.strings, this.reasonCodes, this.provenanceIds, this.provenances);
  }
}

const REASON_CODES = Object.fromEntries(NULL_REASONS.map((reason, i) => [reason, i + 1])) as Record<NullReason, number>;
