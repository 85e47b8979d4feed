import { describe, expect, it } from 'vitest';
import { ParcelRowError } from './errors.js';
import { geodesicAreaAcres } from './geometry.js';
import { ACRES_FORMULA, toParcelRecord } from './mapping.js';
import { thrown } from './testing/files.js';
import type { GeoJSONGeometry, SourceRow } from './types.js';

const SQUARE: GeoJSONGeometry = {
  type: 'Polygon',
  coordinates: [[[-97.75, 30.25], [-97.74, 30.25], [-97.74, 30.26], [-97.75, 30.26], [-97.75, 30.25]]],
};
const row = (properties: Record<string, unknown>, geometry: GeoJSONGeometry | null = SQUARE, line = 7): SourceRow => ({
  line,
  geometry,
  properties,
});
const map = (properties: Record<string, unknown>, geometry?: GeoJSONGeometry | null) => toParcelRecord(row(properties, geometry), 'travis-tx');
const failure = (properties: Record<string, unknown>, geometry?: unknown) =>
  thrown(() => toParcelRecord(row(properties, geometry as GeoJSONGeometry), 'travis-tx')) as ParcelRowError;

describe('toParcelRecord', () => {
  it('maps a full GeoJSON feature onto typed, derived and free facts', () => {
    const record = map({
      parcel_key: ' TX-1 ',
      apn: '0123-456',
      address: '123 North Main Street, Suite 4',
      owner_name: 'Ranch LLC',
      zoning: 'AG',
      land_use: 'Agricultural',
      acres: 40.5,
      developable_acres: 30,
      assessed_value_usd: 250000,
      nearest_substation_distance_m: 1800.5,
      within_floodplain_polygon: false,
      slope_degrees: 210,
      school_district: 'Austin ISD',
      year_built: null,
      tags: ['a', 'b'],
    });
    expect(record).toEqual({
      line: 7,
      parcelKey: 'TX-1',
      apn: '0123-456',
      apnNormalised: '0123456',
      address: '123 North Main Street, Suite 4',
      addressNormalised: '123 N MAIN ST STE 4',
      lat: expect.closeTo(30.255, 9),
      lon: expect.closeTo(-97.745, 9),
      bbox: [-97.75, 30.25, -97.74, 30.26],
      geometry: SQUARE,
      typed: {
        acres: 40.5,
        developable_acres: 30,
        zoning: 'AG',
        land_use: 'Agricultural',
        owner_name: 'Ranch LLC',
        assessed_value_usd: 250000,
        apn: '0123-456',
        address: '123 North Main Street, Suite 4',
      },
      derived: new Map<string, unknown>([
        ['nearest_substation_distance_m', 1800.5],
        ['within_floodplain_polygon', false],
        ['slope_degrees', 210],
      ]),
      freeFacts: new Map<string, unknown>([
        ['school_district', 'Austin ISD'],
        ['year_built', null],
        ['tags', ['a', 'b']],
      ]),
      // Everything was read, nothing computed: the vintage says where it came from (D13).
      computed: {},
    });
  });

  it('builds the parcel key from the market and the normalised APN, else refuses the row', () => {
    expect(map({ apn: ' 01-23.45a ' }).parcelKey).toBe('travis-tx:012345A');
    expect(map({ parcel_key: '   ', apn: '9-9' }).parcelKey).toBe('travis-tx:99');
    expect(map({ parcel_key: 1234 }).parcelKey).toBe('1234');
    expect(map({ parcel_key: 'K' }).apn).toBeNull();
    for (const properties of [{}, { apn: '' }, { apn: '--' }, { parcel_key: null, apn: null }]) {
      const error = failure(properties);
      expect(error, JSON.stringify(properties)).toBeInstanceOf(ParcelRowError);
      expect(error).toMatchObject({ line: 7, reason: 'no parcel_key and no apn', message: 'line 7: no parcel_key and no apn' });
    }
  });

  it('computes acres geodesically (4 decimals, provenance computed) when the row has none', () => {
    const record = map({ apn: '1' });
    expect(record.typed.acres).toBe(Math.round(geodesicAreaAcres(SQUARE)! * 10_000) / 10_000);
    expect(record.typed.acres).toBe(263.9138); // R²·Δλ·(sin φ2 − sin φ1) of this 0.01° cell, in acres
    expect(record.computed).toEqual({ acres: { source: 'computed', formula: 'geodesic_area', formula_version: 1 } });
    expect(record.computed.acres).toBe(ACRES_FORMULA);
    expect(map({ apn: '1', acres: '' }).computed.acres).toEqual(ACRES_FORMULA);
    const point = map({ apn: '1' }, { type: 'Point', coordinates: [-97.7, 30.3] });
    expect([point.typed.acres, point.computed.acres, point.lat, point.lon, point.bbox]).toEqual([null, undefined, 30.3, -97.7, [-97.7, 30.3, -97.7, 30.3]]);
    const nowhere = map({ apn: '1' }, null);
    expect([nowhere.typed.acres, nowhere.lat, nowhere.lon, nowhere.bbox, nowhere.geometry]).toEqual([null, null, null, null, null]);
  });

  it('converts CSV strings of typed numeric fields and catalog fields by their catalog type', () => {
    const record = map({
      apn: '1',
      acres: '12.25',
      developable_acres: ' 10 ',
      assessed_value_usd: '1,250,000',
      zoning: '  ',
      owner_name: '',
      land_use: 'Vacant',
      nearest_substation_distance_m: '1800.5', // float
      within_floodplain_polygon: 'no', // bool
      intersects_protected_area: '1', // bool
      protected_area_gap_status: '3', // int
      tract_geoid: '48453001100', // string: stays a string, leading zeros and all
      slope_degrees: '', // empty: not imported at all
      owner_mailing_city: null, // an empty CSV cell (the reader made it null): a null free fact
      note: '42', // not a catalog field: left exactly as it is
      remark: '', // likewise (a GeoJSON "" stays "")
    });
    expect(record.typed).toMatchObject({ acres: 12.25, developable_acres: 10, assessed_value_usd: 1250000, zoning: null, owner_name: null, land_use: 'Vacant' });
    expect(Object.fromEntries(record.derived)).toEqual({
      nearest_substation_distance_m: 1800.5,
      within_floodplain_polygon: false,
      intersects_protected_area: true,
      protected_area_gap_status: 3,
      tract_geoid: '48453001100',
    });
    expect(record.computed).toEqual({});
    expect(Object.fromEntries(record.freeFacts)).toEqual({ owner_mailing_city: null, note: '42', remark: '' });
  });

  it('refuses a value its field cannot hold, naming the property', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ acres: 'about 40' }, 'property "acres": expected a number, got "about 40"'],
      [{ developable_acres: true }, 'property "developable_acres": expected a number, got true'],
      [{ assessed_value_usd: '-5' }, 'property "assessed_value_usd": must not be negative, got -5'],
      [{ nearest_substation_distance_m: 'far' }, 'property "nearest_substation_distance_m": expected a number, got "far"'],
      [{ within_floodplain_polygon: 'maybe' }, 'property "within_floodplain_polygon": expected a boolean (true/false, 1/0, yes/no), got "maybe"'],
      [{ protected_area_gap_status: '2.5' }, 'property "protected_area_gap_status": expected an integer, got "2.5"'],
      [{ zoning: { code: 'AG' } }, 'property "zoning": expected text, got {"code":"AG"}'],
      [{ apn: ['1'] }, 'property "apn": expected text, got ["1"]'],
    ];
    for (const [properties, reason] of cases) {
      expect(failure({ apn: '1', ...properties })).toMatchObject({ line: 7, reason });
    }
  });

  it('checks a hand-built row geometry like a read one', () => {
    expect(failure({ apn: '1' }, { type: 'Point', coordinates: [-97.7, 130.3] })).toMatchObject({
      line: 7,
      reason: expect.stringMatching(/^geometry: latitude 130.3 is outside/),
    });
  });

  it('keeps odd property names as plain own properties', () => {
    const properties = JSON.parse('{"apn":"1","__proto__":{"polluted":true},"constructor":"x"}') as Record<string, unknown>;
    const record = map(properties);
    expect([...record.freeFacts]).toEqual([
      ['__proto__', { polluted: true }],
      ['constructor', 'x'],
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
