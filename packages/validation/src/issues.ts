import { echoInput } from './input-echo.js';

/** One item of the D1 validation error list (pydantic v2 shape). */
export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
  input?: unknown;
  ctx?: Record<string, unknown>;
}

export type Loc = (string | number)[];

/**
 * The pydantic v2 error types and messages of docs/design.md D1, in one place so that every validator
 * words a failure the same way.
 */
const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** pydantic's rendering of allowed literals: `'a', 'b' or 'c'`. */
export function expectedLiterals(allowed: readonly unknown[]): string {
  const quoted = allowed.map((value) => (typeof value === 'string' ? `'${value}'` : String(value)));
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : (quoted[0] ?? '');
}

const builders = {
  missing: (loc: Loc, input: unknown = null): ValidationIssue => ({ type: 'missing', loc, msg: 'Field required', input }),
  extraForbidden: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'extra_forbidden',
    loc,
    msg: 'Extra inputs are not permitted',
    input,
  }),
  stringType: (loc: Loc, input: unknown): ValidationIssue => ({ type: 'string_type', loc, msg: 'Input should be a valid string', input }),
  stringTooShort: (loc: Loc, input: unknown, min: number): ValidationIssue => ({
    type: 'string_too_short',
    loc,
    msg: `String should have at least ${plural(min, 'character')}`,
    input,
    ctx: { min_length: min },
  }),
  stringTooLong: (loc: Loc, input: unknown, max: number): ValidationIssue => ({
    type: 'string_too_long',
    loc,
    msg: `String should have at most ${plural(max, 'character')}`,
    input,
    ctx: { max_length: max },
  }),
  patternMismatch: (loc: Loc, input: unknown, pattern: string): ValidationIssue => ({
    type: 'string_pattern_mismatch',
    loc,
    msg: `String should match pattern '${pattern}'`,
    input,
    ctx: { pattern },
  }),
  uuidParsing: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'uuid_parsing',
    loc,
    msg: 'Input should be a valid UUID, invalid character or length',
    input,
    ctx: { error: 'invalid character or length' },
  }),
  uuidType: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'uuid_type',
    loc,
    msg: 'UUID input should be a string, bytes or UUID object',
    input,
  }),
  dateType: (loc: Loc, input: unknown): ValidationIssue => ({ type: 'date_type', loc, msg: 'Input should be a valid date', input }),
  dateParsing: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'date_from_datetime_parsing',
    loc,
    msg: 'Input should be a valid date or datetime, expected a date in the format YYYY-MM-DD',
    input,
    ctx: { error: 'expected a date in the format YYYY-MM-DD' },
  }),
  emailInvalid: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'value_error',
    loc,
    msg: 'value is not a valid email address',
    input,
    ctx: { reason: 'not a valid email address' },
  }),
  intType: (loc: Loc, input: unknown): ValidationIssue => ({ type: 'int_type', loc, msg: 'Input should be a valid integer', input }),
  intParsing: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'int_parsing',
    loc,
    msg: 'Input should be a valid integer, unable to parse string as an integer',
    input,
  }),
  intFromFloat: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'int_from_float',
    loc,
    msg: 'Input should be a valid integer, got a number with a fractional part',
    input,
  }),
  floatType: (loc: Loc, input: unknown): ValidationIssue => ({ type: 'float_type', loc, msg: 'Input should be a valid number', input }),
  floatParsing: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'float_parsing',
    loc,
    msg: 'Input should be a valid number, unable to parse string as a number',
    input,
  }),
  boolType: (loc: Loc, input: unknown): ValidationIssue => ({ type: 'bool_type', loc, msg: 'Input should be a valid boolean', input }),
  boolParsing: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'bool_parsing',
    loc,
    msg: 'Input should be a valid boolean, unable to interpret input',
    input,
  }),
  decimalType: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'decimal_type',
    loc,
    msg: 'Decimal input should be an integer, float, string or Decimal object',
    input,
  }),
  decimalParsing: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'decimal_parsing',
    loc,
    msg: 'Input should be a valid decimal',
    input,
  }),
  decimalMaxPlaces: (loc: Loc, input: unknown, places: number): ValidationIssue => ({
    type: 'decimal_max_places',
    loc,
    msg: `Decimal input should have no more than ${plural(places, 'decimal place')}`,
    input,
    ctx: { decimal_places: places },
  }),
  greaterThan: (loc: Loc, input: unknown, gt: number): ValidationIssue => ({
    type: 'greater_than',
    loc,
    msg: `Input should be greater than ${gt}`,
    input,
    ctx: { gt },
  }),
  greaterThanEqual: (loc: Loc, input: unknown, ge: number): ValidationIssue => ({
    type: 'greater_than_equal',
    loc,
    msg: `Input should be greater than or equal to ${ge}`,
    input,
    ctx: { ge },
  }),
  lessThan: (loc: Loc, input: unknown, lt: number): ValidationIssue => ({
    type: 'less_than',
    loc,
    msg: `Input should be less than ${lt}`,
    input,
    ctx: { lt },
  }),
  lessThanEqual: (loc: Loc, input: unknown, le: number): ValidationIssue => ({
    type: 'less_than_equal',
    loc,
    msg: `Input should be less than or equal to ${le}`,
    input,
    ctx: { le },
  }),
  literalError: (loc: Loc, input: unknown, allowed: readonly unknown[]): ValidationIssue => {
    const expected = expectedLiterals(allowed);
    return { type: 'literal_error', loc, msg: `Input should be ${expected}`, input, ctx: { expected } };
  },
  finiteNumber: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'finite_number',
    loc,
    msg: 'Input should be a finite number',
    input,
  }),
  /** pydantic's custom-validator error: `Value error, <reason>` with the reason in ctx.error. */
  valueError: (loc: Loc, input: unknown, reason: string, extra?: Record<string, unknown>): ValidationIssue => ({
    type: 'value_error',
    loc,
    msg: `Value error, ${reason}`,
    input,
    ctx: { error: reason, ...extra },
  }),
  dictType: (loc: Loc, input: unknown): ValidationIssue => ({ type: 'dict_type', loc, msg: 'Input should be a valid dictionary', input }),
  listType: (loc: Loc, input: unknown): ValidationIssue => ({ type: 'list_type', loc, msg: 'Input should be a valid list', input }),
  tooShort: (loc: Loc, input: unknown, min: number, actual: number): ValidationIssue => ({
    type: 'too_short',
    loc,
    msg: `List should have at least ${plural(min, 'item')} after validation, not ${actual}`,
    input,
    ctx: { field_type: 'List', min_length: min, actual_length: actual },
  }),
  tooLong: (loc: Loc, input: unknown, max: number, actual: number): ValidationIssue => ({
    type: 'too_long',
    loc,
    msg: `List should have at most ${plural(max, 'item')} after validation, not ${actual}`,
    input,
    ctx: { field_type: 'List', max_length: max, actual_length: actual },
  }),
  nulCharacter: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'value_error',
    loc,
    msg: 'Value error, NUL characters (U+0000) are not allowed',
    input,
    ctx: { error: 'NUL characters (U+0000) are not allowed' },
  }),
  /**
   * JSON nested deeper than a reader allows: pydantic's own parser reports its recursion limit as
   * json_invalid too (docs/decisions.md, "JSON nesting depth").
   */
  jsonTooDeep: (loc: Loc, maxDepth: number): ValidationIssue => ({
    type: 'json_invalid',
    loc,
    msg: `JSON nested deeper than ${maxDepth} levels`,
    input: {},
    ctx: { error: 'recursion limit exceeded', max_depth: maxDepth },
  }),
  jsonInvalid: (position: number, error: string): ValidationIssue => ({
    type: 'json_invalid',
    loc: ['body', position],
    msg: 'JSON decode error',
    input: {},
    ctx: { error },
  }),
};

/** Every builder's `input` goes through echoInput, so no error echoes an unbounded value. */
function withEchoedInput<T extends Record<string, (...args: any[]) => ValidationIssue>>(all: T): T {
  const wrapped: Record<string, (...args: any[]) => ValidationIssue> = {};
  for (const [name, build] of Object.entries(all)) {
    wrapped[name] = (...args) => {
      const item = build(...args);
      if ('input' in item) item.input = echoInput(item.input);
      return item;
    };
  }
  return wrapped as T;
}

export const issue = withEchoedInput(builders);
