import { describe, expect, it } from 'vitest';
import { parsePropertyMap } from './property-map.js';

describe('parsePropertyMap (--map attr=property,...)', () => {
  it('reads pairs, trimming blanks around them', () => {
    expect([...parsePropertyMap('VOLTAGE=voltage_kv, Owner Name = owner')]).toEqual([
      ['VOLTAGE', 'voltage_kv'],
      ['Owner Name', 'owner'],
    ]);
  });

  it.each([
    ['', /an empty entry/],
    ['A=a,', /an empty entry/],
    ['VOLTAGE', /has no "="/],
    ['=voltage_kv', /names no file attribute/],
    ['VOLTAGE=', /"" is not a property name/],
    ['VOLTAGE=Voltage KV', /"Voltage KV" is not a property name/],
    ['A=a,A=b', /names the attribute "A" twice/],
    ['A=name,B=name', /maps both "A" and "B" onto "name"/],
  ])('refuses %j', (text, message) => {
    expect(() => parsePropertyMap(text)).toThrow(message);
  });
});
