import { describe, expect, it } from 'vitest';
import { Type } from '@sinclair/typebox';
import { Closed, Decimal, Nullable, Str, Uuid } from '../schemas/common.js';
import { compile, normaliseDecimal } from './compile.js';
import type { ValidationIssue } from '@landscreen/validation';

function run(schema: object, input: unknown, mode: 'json' | 'text' = 'json') {
  const issues: ValidationIssue[] = [];
  const value = compile(schema as Record<string, unknown>, mode)(input, ['body'], issues);
  return { value, issues, types: issues.map((item) => `${item.loc.join('.')}:${item.type}`) };
}

describe('compile (pydantic v2 lax-mode semantics)', () => {
  const Body = Closed({
    name: Str(1, 5),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    tags: Type.Optional(Type.Array(Str(1, 10), { maxItems: 2 })),
    note: Type.Optional(Nullable(Str(undefined, 3))),
  });

  it('reports every error, in field order, extras last', () => {
    const { types } = run(Body, { zzz: 1, name: '', limit: 0, tags: ['ok', '', 'x'] });
    expect(types).toEqual(['body.name:string_too_short', 'body.limit:greater_than_equal', 'body.tags:too_long', 'body.zzz:extra_forbidden']);
  });

  it('fills defaults and keeps values', () => {
    expect(run(Body, { name: 'abc' }).value).toEqual({ name: 'abc', limit: 50 });
  });

  it('keeps a "__proto__" property of an open object as data, never as the prototype', () => {
    const Open = Type.Object({ name: Str(1, 5), note: Type.Optional(Str(1, 50)) }, { additionalProperties: true });
    const input = JSON.parse('{"name":"abc","__proto__":{"note":"smuggled past validation"}}');
    const { value, issues } = run(Open, input);
    expect(issues).toEqual([]);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect((value as { note?: string }).note).toBeUndefined();
    expect(Object.keys(value as object)).toEqual(['name', '__proto__']);
    expect(JSON.stringify(value)).toBe('{"name":"abc","__proto__":{"note":"smuggled past validation"}}');
  });

  it('reports a missing field with the parent object as input', () => {
    const [item] = run(Body, {}).issues;
    expect(item).toEqual({ type: 'missing', loc: ['body', 'name'], msg: 'Field required', input: {} });
  });

  it('words limits like pydantic', () => {
    const [item] = run(Body, { name: 'abcdef' }).issues;
    expect(item).toEqual({
      type: 'string_too_long',
      loc: ['body', 'name'],
      msg: 'String should have at most 5 characters',
      input: 'abcdef',
      ctx: { max_length: 5 },
    });
  });

  it('accepts null only where nullable', () => {
    expect(run(Body, { name: 'a', note: null }).issues).toEqual([]);
    expect(run(Body, { name: null }).types).toEqual(['body.name:string_type']);
  });

  it('parses integers in lax mode and names each failure', () => {
    const schema = Type.Integer({ maximum: 10 });
    expect(run(schema, '7').value).toBe(7);
    expect(run(schema, 'abc').types).toEqual(['body:int_parsing']);
    expect(run(schema, 1.5).types).toEqual(['body:int_from_float']);
    expect(run(schema, [1]).types).toEqual(['body:int_type']);
    expect(run(schema, true).types).toEqual(['body:int_type']);
    expect(run(schema, 11).issues[0]).toMatchObject({ type: 'less_than_equal', ctx: { le: 10 } });
  });

  it('coerces query text to booleans and numbers', () => {
    expect(run(Type.Boolean(), 'true', 'text').value).toBe(true);
    expect(run(Type.Boolean(), 'maybe', 'text').types).toEqual(['body:bool_parsing']);
    expect(run(Type.Number(), '2.5', 'text').value).toBe(2.5);
    expect(run(Type.Number(), 'x', 'text').types).toEqual(['body:float_parsing']);
  });

  it('checks enums as literal_error with the expected values', () => {
    const [item] = run(Type.Union([Type.Literal('ready'), Type.Literal('partial')]), 'done').issues;
    expect(item).toMatchObject({ type: 'literal_error', msg: "Input should be 'ready' or 'partial'" });
  });

  it('checks uuids and dates', () => {
    expect(run(Uuid(), 'not-a-uuid').types).toEqual(['body:uuid_parsing']);
    expect(run(Uuid(), '6f1c2a4e-3b1d-4c5e-9f2a-1b2c3d4e5f60').issues).toEqual([]);
    expect(run(Type.String({ format: 'date' }), '2026-02-30').types).toEqual(['body:date_from_datetime_parsing']);
    expect(run(Type.String({ format: 'date' }), '2026-02-28').issues).toEqual([]);
  });

  it('keeps money exact: numbers and decimal strings become normalised decimal strings', () => {
    const money = Decimal({ maxPlaces: 4, exclusiveMinimum: 0, maximum: 100 });
    expect(run(money, 12.5).value).toBe('12.5');
    expect(run(money, '0.1000').value).toBe('0.1');
    expect(run(money, '0.12345').types).toEqual(['body:decimal_max_places']);
    expect(run(money, 0.00001).types).toEqual(['body:decimal_max_places']);
    expect(run(money, 0).types).toEqual(['body:greater_than']);
    expect(run(money, '100.0001').types).toEqual(['body:less_than_equal']);
    expect(run(money, 'ten').types).toEqual(['body:decimal_parsing']);
    expect(run(money, true).types).toEqual(['body:decimal_type']);
  });

  it('gives an x-name string one form (NFC, trimmed) and refuses invisible characters in it', () => {
    const name = Str(1, 5, { 'x-name': true });
    expect(run(name, '  Cafe\u0301 ').value).toBe('Café');
    expect(run(name, 'Café').value).toBe('Café');
    expect(run(name, '   ').types).toEqual(['body:string_too_short']);
    expect(run(name, 'dc\u200b').issues).toEqual([
      {
        type: 'value_error',
        loc: ['body'],
        msg: 'Value error, a name cannot contain control or invisible characters (found U+200B)',
        input: 'dc\u200b',
        ctx: { error: 'a name cannot contain control or invisible characters (found U+200B)' },
      },
    ]);
    expect(run(Str(1, 5), ' dc\u200b').value).toBe(' dc\u200b');
  });

  it('rejects non-objects and non-lists by their pydantic names', () => {
    expect(run(Body, []).types).toEqual(['body:dict_type']);
    expect(run(Type.Array(Type.String()), 'x').types).toEqual(['body:list_type']);
  });
});

describe('normaliseDecimal', () => {
  it.each([
    ['+012.3400', '12.34'],
    ['-0.0', '0'],
    ['5', '5'],
    ['.5', '0.5'],
    ['-1.50', '-1.5'],
  ])('%s → %s', (input, expected) => expect(normaliseDecimal(input)).toBe(expected));
});
