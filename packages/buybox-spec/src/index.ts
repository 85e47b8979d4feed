// Public surface of @landscreen/buybox-spec: the canonical buy-box spec shared by the gateway and
// the services — rule ops (D10), normalisation and hashing (D11), the text language (D12) and
// evaluation (D14). Pure logic: no database, no I/O.

export * from './types.js';
export {
  ACCEPTED_OPS,
  MAX_LIST_VALUES,
  OP_ALIASES,
  compilePredicate,
  isScalar,
  normaliseOp,
  valueShapeError,
  type Predicate,
} from './ops.js';
export { compareText, isMissing, numericValue } from './compare.js';
export { canonicalJson, queryHash, specHash } from './hash.js';
export { GRADED_OPS, ZERO_AT_BOUND, compileGrade, gradedNumber, gradedShare } from './grade.js';
export { DRAFT_LIMITS, isNormalised, normaliseDraft, type NormaliseOptions, type NormaliseResult } from './normalise.js';
export { preferenceWeightTotal, roundScore, scoreOf, verdictOf } from './score.js';
export {
  compileSpec,
  type CompiledMustRule,
  type CompiledPreferredRule,
  type CompiledSpec,
  type Evaluation,
} from './evaluate.js';
export { DEFAULT_CUTOFFS, DEFAULT_WEIGHT, parseBuyBoxText, type ParseOptions, type ParseResult } from './parse.js';
export { fieldUnit } from './parse/units.js';
export { CATALOG_FIELD_NAMES, suggestField, unknownFieldSentence } from './suggest.js';
