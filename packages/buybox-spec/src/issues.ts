// The pydantic v2 error items of D1 that validating a draft can produce, worded exactly as
// pydantic words them (and as the gateway's own validator does), so that a client sees one
// vocabulary whichever layer caught the mistake.

import type { ValidationIssue } from './types.js';

export type Loc = (string | number)[];

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

/** pydantic's rendering of allowed literals: `'a', 'b' or 'c'`. */
export function expectedLiterals(allowed: readonly string[]): string {
  const quoted = allowed.map((value) => `'${value}'`);
  return quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}` : (quoted[0] ?? '');
}

export const issue = {
  missing: (loc: Loc, input: unknown): ValidationIssue => ({ type: 'missing', loc, msg: 'Field required', input }),
  extraForbidden: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'extra_forbidden',
    loc,
    msg: 'Extra inputs are not permitted',
    input,
  }),
  dictType: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'dict_type',
    loc,
    msg: 'Input should be a valid dictionary',
    input,
  }),
  listType: (loc: Loc, input: unknown): ValidationIssue => ({ type: 'list_type', loc, msg: 'Input should be a valid list', input }),
  stringType: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'string_type',
    loc,
    msg: 'Input should be a valid string',
    input,
  }),
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
  literalError: (loc: Loc, input: unknown, allowed: readonly string[]): ValidationIssue => {
    const expected = expectedLiterals(allowed);
    return { type: 'literal_error', loc, msg: `Input should be ${expected}`, input, ctx: { expected } };
  },
  floatType: (loc: Loc, input: unknown): ValidationIssue => ({ type: 'float_type', loc, msg: 'Input should be a valid number', input }),
  floatParsing: (loc: Loc, input: unknown): ValidationIssue => ({
    type: 'float_parsing',
    loc,
    msg: 'Input should be a valid number, unable to parse string as a number',
    input,
  }),
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
};
