// The field record of the spec ("Field record") and the two builders the layer files use.
// The builders take a field's spec row almost verbatim (codes included) so that each layer file
// reads side by side with the spec's table; the codes are decoded here, once.

import type { FieldEvaluator } from './field-evaluator.js';
import { deepFreeze } from './freeze.js';
import { SOURCES, type SourceId } from './sources.js';
import {
  PARCEL_RECORD_GROUP,
  PRESET_CODES,
  TTL_CODES,
  type FieldType,
  type Layer,
  type MeteredGroup,
  type Preset,
  type PresetCode,
  type TtlCode,
} from './vocabulary.js';

export interface FieldBilling {
  /** 1 for ordinary fields; null for metered-group fields, which are priced per group. */
  readonly credits_per_location: number | null;
  readonly metered_group: MeteredGroup | null;
}

export interface FieldDerivation {
  readonly formula: string;
  readonly formula_version: number;
  readonly inputs: readonly string[];
}

export type EnumValue = string | number;

export interface FieldRecord {
  readonly name: string;
  readonly layer: Layer;
  readonly description: string;
  readonly interpretation_hints: string;
  readonly type: FieldType;
  readonly unit: string | null;
  readonly nullable: boolean;
  /** A string exactly when `nullable` is true. */
  readonly null_meaning: string | null;
  readonly ttl_seconds: number;
  readonly presets: readonly Preset[];
  readonly lifecycle: 'stable';
  readonly billing: FieldBilling;
  readonly derivation: FieldDerivation | null;
  readonly source: string;
  readonly source_url: string;
  /** The closed set of values the spec states for the field, when it states one. */
  readonly enum?: readonly EnumValue[];
}

/** What the spec leaves to us: prose, provenance and, where stated, enumerations. */
export interface FieldDetails {
  description: string;
  hints?: string;
  /** Required for nullable fields, forbidden otherwise. */
  null_meaning?: string;
  source: SourceId;
  enum?: readonly EnumValue[];
  derivation?: FieldDerivation;
  /** How the field is computed; kept beside the record (see field-evaluator.ts), not on it. */
  evaluator: FieldEvaluator;
}

type YesNo = 'Y' | 'N';

/**
 * Builds the row builder of one layer. Arguments follow the spec's column order:
 * name | type | unit ('-' = none) | nullable | ttl code | preset codes ('-' = none).
 */
export function layerFields(layer: Layer) {
  return (
    name: string,
    type: FieldType,
    unit: string,
    nullable: YesNo,
    ttl: TtlCode,
    presets: string,
    details: FieldDetails,
  ): FieldRecord =>
    buildRecord({
      name,
      layer,
      type,
      unit,
      nullable: nullable === 'Y',
      ttl,
      presets,
      billing: { credits_per_location: 1, metered_group: null },
      details,
    });
}

/**
 * A member of the parcel_record metered group: layer parcels, nullable, ttl D, priced per
 * group (credits_per_location null), as the spec's parcel-record paragraph fixes for all of them.
 */
export function parcelRecordField(
  name: string,
  type: FieldType,
  unit: string,
  presets: string,
  details: FieldDetails,
): FieldRecord {
  return buildRecord({
    name,
    layer: 'parcels',
    type,
    unit,
    nullable: true,
    ttl: 'D',
    presets,
    billing: { credits_per_location: null, metered_group: PARCEL_RECORD_GROUP },
    details,
  });
}

interface RecordInput {
  name: string;
  layer: Layer;
  type: FieldType;
  unit: string;
  nullable: boolean;
  ttl: TtlCode;
  presets: string;
  billing: FieldBilling;
  details: FieldDetails;
}

function buildRecord(input: RecordInput): FieldRecord {
  const { name, details } = input;
  // A catalog that lies about nullability is worse than one that fails to load: these checks
  // run at import time, so any test importing the package catches a slip in a layer file.
  if (input.nullable !== (details.null_meaning !== undefined)) {
    throw new Error(`field ${name}: null_meaning must be given exactly when the field is nullable`);
  }
  const record: FieldRecord = {
    name,
    layer: input.layer,
    description: details.description,
    interpretation_hints: details.hints ?? '',
    type: input.type,
    unit: input.unit === '-' ? null : input.unit,
    nullable: input.nullable,
    null_meaning: details.null_meaning ?? null,
    ttl_seconds: TTL_CODES[input.ttl],
    presets: decodePresets(name, input.presets),
    lifecycle: 'stable',
    billing: input.billing,
    derivation: details.derivation ?? null,
    source: details.source,
    source_url: SOURCES[details.source],
    ...(details.enum ? { enum: details.enum } : {}),
  };
  deepFreeze(record);
  declareEvaluator(record, details.evaluator);
  return record;
}

function decodePresets(name: string, codes: string): Preset[] {
  if (codes === '-') return [];
  return codes.split(',').map((code) => {
    if (!Object.hasOwn(PRESET_CODES, code)) {
      throw new Error(`field ${name}: unknown preset code ${code}`);
    }
    return PRESET_CODES[code as PresetCode];
  });
}

// The evaluator registry lives beside the record type so field-evaluator.ts needs nothing from here.
const EVALUATORS = new WeakMap<FieldRecord, FieldEvaluator>();

/** Called by the record builder: the evaluator travels beside the record, never on it. */
export function declareEvaluator(record: FieldRecord, evaluator: FieldEvaluator): void {
  EVALUATORS.set(record, deepFreeze(evaluator));
}

export function evaluatorOf(record: FieldRecord): FieldEvaluator {
  const evaluator = EVALUATORS.get(record);
  if (!evaluator) throw new Error(`field ${record.name} has no evaluator`);
  return evaluator;
}
