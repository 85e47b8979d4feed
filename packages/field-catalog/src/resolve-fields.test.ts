import { describe, expect, it } from 'vitest';
import { CatalogError, UnknownFieldError, UnknownPresetError } from './errors.js';
import { fieldsOfPreset } from './fields.js';
import { resolveFields } from './resolve-fields.js';
import { closestMatch, editDistance } from './suggest.js';

function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('resolveFields', () => {
  it('returns explicit fields de-duplicated, in request order', () => {
    expect(resolveFields({ fields: ['slope_degrees', 'elevation', 'slope_degrees'] })).toEqual([
      'slope_degrees',
      'elevation',
    ]);
  });

  it('expands a preset to its fields in catalog order', () => {
    expect(resolveFields({ preset: 'building_lookup' })).toEqual([
      'primary_building_height_m',
      'primary_building_num_floors',
      'primary_building_footprint_sqm',
      'primary_building_map_class',
    ]);
    expect(resolveFields({ preset: 'data_center_siting' })).toEqual(
      fieldsOfPreset('data_center_siting').map((f) => f.name),
    );
  });

  it('unions fields and preset without duplicates', () => {
    const resolved = resolveFields({ fields: ['parcel_owner', 'primary_building_height_m'], preset: 'building_lookup' });
    expect(resolved).toEqual([
      'parcel_owner',
      'primary_building_height_m',
      'primary_building_num_floors',
      'primary_building_footprint_sqm',
      'primary_building_map_class',
    ]);
  });

  it('returns an empty list for an empty selection', () => {
    expect(resolveFields({})).toEqual([]);
  });
});

describe('UnknownFieldError', () => {
  it('names the unknown fields and suggests the closest catalog name', () => {
    const error = thrown(() => resolveFields({ fields: ['elevation', 'elevaton', 'slope_degree', 'xyzzy'] }));
    expect(error).toBeInstanceOf(UnknownFieldError);
    expect(error).toBeInstanceOf(CatalogError);
    const unknown = error as UnknownFieldError;
    expect(unknown.code).toBe('unknown_field');
    expect(unknown.names).toEqual(['elevaton', 'slope_degree', 'xyzzy']);
    expect(unknown.suggestions).toEqual([
      { name: 'elevaton', did_you_mean: 'elevation' },
      { name: 'slope_degree', did_you_mean: 'slope_degrees' },
      { name: 'xyzzy', did_you_mean: null },
    ]);
    expect(unknown.message).toBe(
      'unknown fields: "elevaton" (did you mean "elevation"?), "slope_degree" (did you mean "slope_degrees"?), "xyzzy"',
    );
  });

  it('suggests across case and unit-suffix typos', () => {
    const error = thrown(() => resolveFields({ fields: ['Tract_GEOID', 'nearest_substation_distance_km'] }));
    expect((error as UnknownFieldError).suggestions.map((s) => s.did_you_mean)).toEqual([
      'tract_geoid',
      'nearest_substation_distance_m',
    ]);
  });

  it('reports an unknown field name once even if repeated', () => {
    const error = thrown(() => resolveFields({ fields: ['elevaton', 'elevaton'] })) as UnknownFieldError;
    expect(error.names).toEqual(['elevaton']);
    expect(error.message).toBe('unknown field: "elevaton" (did you mean "elevation"?)');
  });
});

describe('UnknownPresetError', () => {
  it('rejects an unknown preset with a suggestion; preset codes are not preset names', () => {
    const error = thrown(() => resolveFields({ preset: 'solar_sitting' })) as UnknownPresetError;
    expect(error).toBeInstanceOf(UnknownPresetError);
    expect(error.code).toBe('unknown_preset');
    expect(error.suggestions).toEqual([{ name: 'solar_sitting', did_you_mean: 'solar_siting' }]);
    expect(() => resolveFields({ preset: 'sol' })).toThrow(UnknownPresetError);
  });
});

describe('edit distance', () => {
  it('computes Levenshtein distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });

  it('returns null when nothing is close', () => {
    expect(closestMatch('zz', ['elevation'])).toBeNull();
  });
});
