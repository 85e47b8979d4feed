import { describe, expect, it } from 'vitest';
import { Engine, buildGridLayer, buildVectorLayer } from './engine.js';
import { LayerBuildError, UnknownFieldError } from './errors.js';
import { boxPolygon, feature, line, point } from './testing/shapes.js';

function buildError(build: () => unknown): LayerBuildError {
  try {
    build();
  } catch (error) {
    if (error instanceof LayerBuildError) return error;
    throw error;
  }
  throw new Error('expected a LayerBuildError');
}

describe('building layer indexes', () => {
  it('refuses a feature of the wrong geometry kind with its 1-based position', () => {
    const error = buildError(() =>
      buildVectorLayer('hifld_substations', 'v', [feature(point(-97, 30)), feature(line([-97, 30], [-96, 30]))]),
    );
    expect(error.position).toBe(2);
    expect(error.message).toBe('feature 2: hifld_substations is a points source; got LineString');
  });

  it('refuses coordinates that are not WGS84 longitude/latitude (a projected file read as is)', () => {
    const error = buildError(() => buildVectorLayer('usfws_nwi', 'v', [feature(boxPolygon([500_000, 3_300_000, 500_100, 3_300_100]))]));
    expect(error.position).toBe(1);
  });

  it('refuses grids for vector sources, vectors for grid sources, and inconsistent grids', () => {
    expect(buildError(() => buildVectorLayer('usgs_3dep', 'v', [])).position).toBeNull();
    const grid = { width: 2, height: 2, bbox: [-97, 30, -96, 31] as const, values: new Float32Array(4) };
    expect(() => buildGridLayer('hifld_substations', 'v', grid)).toThrow(LayerBuildError);
    expect(() => buildGridLayer('usgs_3dep', 'v', { ...grid, values: new Float32Array(3) })).toThrow('3 values for 2x2 cells');
    expect(() => buildGridLayer('usgs_3dep', 'v', { ...grid, bbox: undefined, geotransform: [-97, 0.5, 0.1, 31, 0, -0.5] })).toThrow('rotated');
  });

  it('refuses sources that are not layers', () => {
    expect(() => buildVectorLayer('derived', 'v', [])).toThrow('not a layer source');
  });

  it('names unknown fields', () => {
    expect(() => new Engine().evaluate([{ lon: -97, lat: 30 }], ['elevation', 'elevator', 'nope'])).toThrow(
      new UnknownFieldError(['elevator', 'nope']),
    );
  });

  it('swaps a source to its newly loaded version; earlier answers keep their provenance', () => {
    const engine = new Engine();
    engine.load(buildVectorLayer('hifld_substations', 'v1', [feature(point(-97, 30), { name: 'Old' })]));
    const before = engine.evaluate([{ lon: -97, lat: 30 }], ['nearest_substation_distance_m']);
    engine.load(buildVectorLayer('hifld_substations', 'v2', [feature(point(-97, 30.01), { name: 'New' })]));
    expect(before.provenance(0, 0)?.layers).toEqual([{ source: 'hifld_substations', layer_version: 'v1' }]);
    const after = engine.evaluate([{ lon: -97, lat: 30 }], ['nearest_substation_distance_m']);
    expect(after.provenance(0, 0)?.layers).toEqual([{ source: 'hifld_substations', layer_version: 'v2' }]);
    expect(after.value(0, 0)).toBeGreaterThan(1000);
    expect(engine.loaded()).toEqual([{ source: 'hifld_substations', layer_version: 'v2' }]);
  });
});
