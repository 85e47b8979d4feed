import { describe, expect, it } from 'vitest';
import { parseWhere, WhereSyntaxError } from './where.js';

const keeps = (text: string, properties: Record<string, unknown>) => parseWhere(text).test(properties);

describe('--where', () => {
  it('compares text and numbers, and numeric text as numbers', () => {
    expect(keeps("SFHA_TF = 'T'", { SFHA_TF: 'T' })).toBe(true);
    expect(keeps("SFHA_TF = 'T'", { SFHA_TF: 'F' })).toBe(false);
    expect(keeps('VOLTAGE >= 345', { VOLTAGE: 500 })).toBe(true);
    expect(keeps('VOLTAGE >= 345', { VOLTAGE: '138' })).toBe(false);
    expect(keeps('VOLTAGE > -1', { VOLTAGE: -999999 })).toBe(false);
    expect(keeps("STATUS <> 'RETIRED'", { STATUS: 'IN SERVICE' })).toBe(true);
    expect(keeps("NAME = 'O''Brien'", { NAME: "O'Brien" })).toBe(true);
    expect(keeps('"Plant Name" = \'X\'', { 'Plant Name': 'X' })).toBe(true);
  });

  it('takes IN, LIKE, IS NULL, AND, OR, NOT and parentheses, keywords in any case', () => {
    const floodplain = "SFHA_TF = 'T' OR (SFHA_TF IS NULL AND FLD_ZONE IN ('A', 'AE', 'V', 'VE'))";
    expect(keeps(floodplain, { SFHA_TF: 'T', FLD_ZONE: 'AE' })).toBe(true);
    expect(keeps(floodplain, { SFHA_TF: 'F', FLD_ZONE: 'X' })).toBe(false);
    expect(keeps(floodplain, { FLD_ZONE: 'VE' })).toBe(true);
    expect(keeps(floodplain, { FLD_ZONE: 'X' })).toBe(false);
    expect(keeps("FLD_ZONE like 'A%'", { FLD_ZONE: 'A99' })).toBe(true);
    expect(keeps("FLD_ZONE LIKE 'A_'", { FLD_ZONE: 'A99' })).toBe(false);
    expect(keeps("FLD_ZONE NOT IN ('X', 'D')", { FLD_ZONE: 'AE' })).toBe(true);
    expect(keeps("not FLD_ZONE = 'X'", { FLD_ZONE: 'AE' })).toBe(true);
    expect(parseWhere("A = 1 AND (B = 'x' OR NOT C LIKE 'y%')").fields).toEqual(['A', 'B', 'C']);
  });

  it('treats a missing attribute as unknown: neither kept nor kept by NOT', () => {
    expect(keeps("FLD_ZONE = 'X'", {})).toBe(false);
    expect(keeps("NOT FLD_ZONE = 'X'", {})).toBe(false);
    expect(keeps("FLD_ZONE = 'X' OR A = 1", { A: 1 })).toBe(true);
  });

  it('refuses bad syntax, naming where', () => {
    const refusal = (text: string) => {
      try {
        parseWhere(text);
      } catch (error) {
        expect(error).toBeInstanceOf(WhereSyntaxError);
        return (error as Error).message;
      }
      throw new Error(`accepted ${text}`);
    };
    expect(refusal('')).toBe('--where "": the expression is empty at character 1');
    expect(refusal("FLD_ZONE = 'A")).toBe('--where "FLD_ZONE = \'A": unclosed text at character 12');
    expect(refusal("FLD_ZONE == 'A'")).toContain('expected a quoted text or a number, found "=" at character 11');
    expect(refusal("FLD_ZONE IN ('A'")).toContain('expected ")", found the end');
    expect(refusal('FLD_ZONE; DROP TABLE x')).toContain('unexpected ";" at character 9');
    expect(refusal("A = 1 B = 2")).toContain('unexpected "B" at character 7');
    expect(refusal(`${'('.repeat(100)}A = 1${')'.repeat(100)}`)).toContain('nested more than 32 levels');
  });
});
