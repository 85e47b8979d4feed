import { invisibleCharacterIn, invisibleCharacterSentence, issue, normaliseName, setOwn, type Loc, type ValidationIssue } from '@landscreen/validation';

/**
 * A JSON-schema subset compiled into closures that validate like pydantic v2 in lax mode and
 * report every failure with its `loc` (D1), instead of stopping at the first one.
 *
 * Keywords understood: type (incl. arrays with "null"), anyOf (nullable unions), properties,
 * required, additionalProperties, default, minLength, maxLength, pattern, format (uuid, date,
 * email), minimum, maximum, exclusiveMinimum, exclusiveMaximum, enum, const, items, minItems,
 * maxItems, and the vendor keywords `x-decimal` ({ maxPlaces }) for money: a JSON number or a
 * decimal string, returned as a normalised decimal string so that floats never carry money; and
 * `x-name` (true) for a name people type and read: refused with control or invisible characters,
 * returned in NFC and trimmed, its length counted after that (pydantic's str_strip_whitespace).
 */
export type Schema = Record<string, any>;
export type Mode = 'json' | 'text';
export type Validator = (input: unknown, loc: Loc, issues: ValidationIssue[]) => unknown;

const UUID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const INTEGER_TEXT = /^\s*[+-]?\d+\s*$/;
const NUMBER_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const DECIMAL_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)\s*$/;
const TRUE_TEXT = new Set(['true', '1', 'yes', 'on', 't', 'y']);
const FALSE_TEXT = new Set(['false', '0', 'no', 'off', 'f', 'n']);

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function compile(schema: Schema, mode: Mode = 'json'): Validator {
  // Money is declared as anyOf [number, string] for the document; its own rules come first.
  if (schema['x-decimal']) return compileDecimal(schema);
  if (Array.isArray(schema.anyOf)) return compileUnion(schema.anyOf, mode);
  const types: string[] = schema.type === undefined ? [] : [schema.type].flat();
  const nullable = types.includes('null');
  const type = types.find((candidate) => candidate !== 'null');
  let inner: Validator;
  if (type === 'object') inner = compileObject(schema, mode);
  else if (type === 'array') inner = compileArray(schema, mode);
  else if (type === 'string') inner = compileString(schema);
  else if (type === 'integer') inner = compileNumber(schema, mode, true);
  else if (type === 'number') inner = compileNumber(schema, mode, false);
  else if (type === 'boolean') inner = compileBoolean(mode);
  else inner = (input) => input;
  const withEnum = schema.enum || schema.const !== undefined ? compileEnum(inner, schema.enum ?? [schema.const], mode) : inner;
  if (!nullable) return withEnum;
  return (input, loc, issues) => (input === null ? null : withEnum(input, loc, issues));
}

function compileUnion(branches: Schema[], mode: Mode): Validator {
  const allowsNull = branches.some((branch) => branch.type === 'null');
  const nonNull = branches.filter((branch) => branch.type !== 'null');
  // A union of literals is an enum: one literal_error naming every allowed value.
  if (nonNull.length > 1 && nonNull.every((branch) => branch.const !== undefined)) {
    const types = [...new Set(nonNull.map((branch) => branch.type).filter(Boolean))];
    const enumSchema = { type: types.length === 1 ? types[0] : undefined, enum: nonNull.map((branch) => branch.const) };
    return compile(allowsNull ? { ...enumSchema, type: [enumSchema.type ?? 'string', 'null'] } : enumSchema, mode);
  }
  const others = nonNull.map((branch) => compile(branch, mode));
  return (input, loc, issues) => {
    if (input === null && allowsNull) return null;
    if (others.length === 1) return others[0]!(input, loc, issues);
    let firstIssues: ValidationIssue[] | undefined;
    for (const validate of others) {
      const branchIssues: ValidationIssue[] = [];
      const value = validate(input, loc, branchIssues);
      if (branchIssues.length === 0) return value;
      firstIssues ??= branchIssues;
    }
    issues.push(...(firstIssues ?? []));
    return input;
  };
}

function compileEnum(inner: Validator, allowed: unknown[], mode: Mode): Validator {
  // In a JSON body a literal matches only itself (pydantic's Literal: "true" is not true, 3 is
  // not a stage); query text is converted by type first.
  if (mode === 'json') {
    return (input, loc, issues) => {
      if (!allowed.includes(input)) issues.push(issue.literalError(loc, input, allowed));
      return input;
    };
  }
  return (input, loc, issues) => {
    const before = issues.length;
    const value = inner(input, loc, issues);
    if (issues.length === before && !allowed.includes(value)) issues.push(issue.literalError(loc, input, allowed));
    return value;
  };
}

function compileObject(schema: Schema, mode: Mode): Validator {
  const properties: [string, Validator, Schema][] = Object.entries(schema.properties ?? {}).map(([name, sub]) => [
    name,
    compile(sub as Schema, mode),
    sub as Schema,
  ]);
  const known = new Set(properties.map(([name]) => name));
  const required = new Set<string>(schema.required ?? []);
  const extra = schema.additionalProperties;
  const extraValidator = isPlainObject(extra) ? compile(extra, mode) : undefined;
  return (input, loc, issues) => {
    if (!isPlainObject(input)) {
      issues.push(issue.dictType(loc, input));
      return input;
    }
    const output: Record<string, unknown> = {};
    for (const [name, validate, sub] of properties) {
      const value = input[name];
      if (value === undefined) {
        if (required.has(name)) issues.push(issue.missing([...loc, name], mode === 'json' ? input : null));
        else if (sub.default !== undefined) output[name] = structuredClone(sub.default);
        continue;
      }
      setOwn(output, name, validate(value, [...loc, name], issues));
    }
    for (const [name, value] of Object.entries(input)) {
      if (known.has(name)) continue;
      if (extra === false) issues.push(issue.extraForbidden([...loc, name], value));
      else setOwn(output, name, extraValidator ? extraValidator(value, [...loc, name], issues) : value);
    }
    return output;
  };
}

function compileArray(schema: Schema, mode: Mode): Validator {
  const item = schema.items ? compile(schema.items, mode) : undefined;
  const { minItems, maxItems } = schema;
  return (input, loc, issues) => {
    // A query parameter given once arrives as a plain string.
    const list = mode === 'text' && typeof input === 'string' ? [input] : input;
    if (!Array.isArray(list)) {
      issues.push(issue.listType(loc, input));
      return input;
    }
    if (minItems !== undefined && list.length < minItems) issues.push(issue.tooShort(loc, input, minItems, list.length));
    if (maxItems !== undefined && list.length > maxItems) {
      issues.push(issue.tooLong(loc, input, maxItems, list.length));
      return input;
    }
    return item ? list.map((value, index) => item(value, [...loc, index], issues)) : list;
  };
}

function compileString(schema: Schema): Validator {
  const { minLength, maxLength, format } = schema;
  const pattern = schema.pattern ? new RegExp(schema.pattern) : undefined;
  const isName = schema['x-name'] === true;
  return (input, loc, issues) => {
    if (typeof input !== 'string') {
      issues.push(format === 'uuid' ? issue.uuidType(loc, input) : format === 'date' ? issue.dateType(loc, input) : issue.stringType(loc, input));
      return input;
    }
    if (isName && refusedName(input, loc, issues)) return input;
    const text = isName ? normaliseName(input) : input;
    const length = minLength !== undefined || maxLength !== undefined ? [...text].length : 0;
    if (minLength !== undefined && length < minLength) issues.push(issue.stringTooShort(loc, input, minLength));
    else if (maxLength !== undefined && length > maxLength) issues.push(issue.stringTooLong(loc, input, maxLength));
    else if (pattern && !pattern.test(text)) issues.push(issue.patternMismatch(loc, input, schema.pattern));
    else if (format === 'uuid' && !UUID.test(text)) issues.push(issue.uuidParsing(loc, input));
    else if (format === 'date' && !isCalendarDate(text)) issues.push(issue.dateParsing(loc, input));
    else if (format === 'email' && !EMAIL.test(text)) issues.push(issue.emailInvalid(loc, input));
    return text;
  };
}

/** A name holding a character nobody can see is refused (docs/decisions.md, "Buy-box names"). */
function refusedName(input: string, loc: Loc, issues: ValidationIssue[]): boolean {
  const hidden = invisibleCharacterIn(input);
  if (hidden === undefined) return false;
  // A NUL is refused in every string of a request (request.ts): one issue for it.
  if (hidden === 'U+0000') return true;
  issues.push(issue.valueError(loc, input, invisibleCharacterSentence(hidden)));
  return true;
}

function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function compileNumber(schema: Schema, mode: Mode, integer: boolean): Validator {
  const bounds = compileBounds(schema);
  return (input, loc, issues) => {
    let value: number;
    if (typeof input === 'number' && mode === 'json') value = input;
    else if (typeof input === 'string' && (integer ? INTEGER_TEXT : NUMBER_TEXT).test(input)) value = Number(input);
    else if (typeof input === 'string') {
      issues.push(integer ? issue.intParsing(loc, input) : issue.floatParsing(loc, input));
      return input;
    } else {
      issues.push(integer ? issue.intType(loc, input) : issue.floatType(loc, input));
      return input;
    }
    if (integer && !Number.isInteger(value)) {
      issues.push(issue.intFromFloat(loc, input));
      return input;
    }
    bounds(value, input, loc, issues);
    return value;
  };
}

function compileBounds(schema: Schema) {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
  return (value: number, input: unknown, loc: Loc, issues: ValidationIssue[]) => {
    if (exclusiveMinimum !== undefined && !(value > exclusiveMinimum)) issues.push(issue.greaterThan(loc, input, exclusiveMinimum));
    if (minimum !== undefined && !(value >= minimum)) issues.push(issue.greaterThanEqual(loc, input, minimum));
    if (exclusiveMaximum !== undefined && !(value < exclusiveMaximum)) issues.push(issue.lessThan(loc, input, exclusiveMaximum));
    if (maximum !== undefined && !(value <= maximum)) issues.push(issue.lessThanEqual(loc, input, maximum));
  };
}

function compileBoolean(mode: Mode): Validator {
  return (input, loc, issues) => {
    if (typeof input === 'boolean' && mode === 'json') return input;
    if (typeof input === 'string') {
      const text = input.trim().toLowerCase();
      if (TRUE_TEXT.has(text)) return true;
      if (FALSE_TEXT.has(text)) return false;
      issues.push(issue.boolParsing(loc, input));
      return input;
    }
    if (typeof input === 'number' && (input === 0 || input === 1)) return input === 1;
    issues.push(typeof input === 'number' ? issue.boolParsing(loc, input) : issue.boolType(loc, input));
    return input;
  };
}

/** Turns a JSON number into its plain decimal text (no exponent), e.g. 1e-7 → "0.0000001". */
function numberToDecimalText(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  // 1.5e21 is an integer that toFixed would still print with an exponent.
  if (Number.isInteger(value)) return BigInt(value).toString();
  return value.toFixed(20).replace(/\.?0+$/, '');
}

function compileDecimal(schema: Schema): Validator {
  const bounds = compileBounds(schema);
  const maxPlaces: number | undefined = schema['x-decimal']?.maxPlaces;
  return (input, loc, issues) => {
    let text: string;
    if (typeof input === 'number' && Number.isFinite(input)) text = numberToDecimalText(input);
    else if (typeof input === 'string' && DECIMAL_TEXT.test(input)) text = input.trim();
    else {
      issues.push(typeof input === 'string' ? issue.decimalParsing(loc, input) : issue.decimalType(loc, input));
      return input;
    }
    const normalised = normaliseDecimal(text);
    const places = normalised.includes('.') ? normalised.split('.')[1]!.length : 0;
    if (maxPlaces !== undefined && places > maxPlaces) {
      issues.push(issue.decimalMaxPlaces(loc, input, maxPlaces));
      return input;
    }
    bounds(Number(normalised), input, loc, issues);
    return normalised;
  };
}

/** "+012.3400" → "12.34"; "-0.0" → "0". Exact: works on the text, never through a float. */
export function normaliseDecimal(text: string): string {
  let sign = '';
  let body = text;
  if (body.startsWith('+') || body.startsWith('-')) {
    sign = body[0] === '-' ? '-' : '';
    body = body.slice(1);
  }
  let [whole = '', fraction = ''] = body.split('.');
  whole = whole.replace(/^0+/, '') || '0';
  fraction = fraction.replace(/0+$/, '');
  const result = fraction ? `${whole}.${fraction}` : whole;
  return result === '0' ? '0' : sign + result;
}
