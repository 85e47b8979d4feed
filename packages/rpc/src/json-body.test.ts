import { describe, expect, it } from 'vitest';
import { Code, ConnectError } from '@connectrpc/connect';
import { readServiceError } from './errors.js';
import { jsonNestedDeeperThan, MAX_JSON_DEPTH, parseJsonInput } from './json-body.js';

const nested = (depth: number) => `${'[{"a":'.repeat(depth / 2)}1${'}]'.repeat(depth / 2)}`;

describe('jsonNestedDeeperThan', () => {
  it('counts arrays and objects, up to the bound and one past it', () => {
    expect(jsonNestedDeeperThan(nested(MAX_JSON_DEPTH))).toBe(false);
    expect(jsonNestedDeeperThan(nested(MAX_JSON_DEPTH + 2))).toBe(true);
    expect(jsonNestedDeeperThan('[[1],[2],{"a":[3]}]', 3)).toBe(false);
    expect(jsonNestedDeeperThan('[[1],[2],{"a":[3]}]', 2)).toBe(true);
    expect(jsonNestedDeeperThan('1', 0)).toBe(false);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestedDeeperThan(`["${'['.repeat(500)}"]`, 1)).toBe(false);
    expect(jsonNestedDeeperThan(`["\\"${'{'.repeat(500)}\\\\"]`, 1)).toBe(false);
    expect(jsonNestedDeeperThan(`["\\\\", [[1]]]`, 2)).toBe(true);
  });

  it('scans a million levels without recursion', () => {
    expect(jsonNestedDeeperThan('['.repeat(1_000_000))).toBe(true);
  });
});

describe('parseJsonInput', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);

  it('parses what is within the bound', () => {
    expect(parseJsonInput(bytes('{"a":[1,"]]"]}'), ['body', 'data'])).toEqual({ a: [1, ']]'] });
  });

  it('refuses deeper nesting with a D1 issue at the field (InvalidArgument)', () => {
    let caught: unknown;
    try {
      parseJsonInput(bytes(`${'['.repeat(20_000)}${']'.repeat(20_000)}`), ['body', 'data']);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConnectError);
    const { code, fields } = readServiceError(caught);
    expect(code).toBe(Code.InvalidArgument);
    expect(fields).toMatchObject({ detail: [{ loc: ['body', 'data'], type: 'json_invalid', ctx: { max_depth: MAX_JSON_DEPTH } }] });
  });
});
