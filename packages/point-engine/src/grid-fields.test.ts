// Grid evaluators on 5x5 grids of 0.002° cells centred on (-97, 30). Cell size in meters at
// 30°N: 0.002° of longitude = 192.97 m, 0.002° of latitude = 221.70 m.

import { describe, expect, it } from 'vitest';
import { Engine, buildGridLayer } from './engine.js';
import type { GridInput } from './grid-index.js';

const BBOX = [-97.005, 29.995, -96.995, 30.005] as const;
const CELL_X_M = 0.002 * 96_486.3;
const CELL_Y_M = 0.002 * 110_852.4;
const TERRAIN = ['elevation', 'slope_degrees', 'aspect_degrees', 'aspect_cardinal'];

/** A 5x5 grid whose cell (col, row) holds f(col, row); row 0 is the north edge. */
function grid(f: (col: number, row: number) => number, extra: Partial<GridInput> = {}): GridInput {
  const values = new Float32Array(25);
  for (let row = 0; row < 5; row++) for (let col = 0; col < 5; col++) values[row * 5 + col] = f(col, row);
  return { width: 5, height: 5, bbox: BBOX, noData: -9999, values, ...extra };
}

function ask(engine: Engine, lon: number, lat: number, fields: string[]) {
  const answer = engine.evaluate([{ lon, lat }], fields);
  return answer.record(0);
}

function elevation(input: GridInput): Engine {
  const engine = new Engine();
  engine.load(buildGridLayer('usgs_3dep', 'dem-1', input));
  return engine;
}

describe('elevation: bilinear sampling between cell centres', () => {
  const engine = elevation(grid((col) => 100 + 10 * col));

  it('answers a cell centre exactly and interpolates between centres', () => {
    expect(ask(engine, -97, 30, ['elevation']).values.elevation).toBeCloseTo(120, 6);
    expect(ask(engine, -96.999, 30, ['elevation']).values.elevation).toBeCloseTo(125, 6);
  });

  it('is null outside_coverage off the grid, with the layer version as provenance', () => {
    const off = ask(engine, -96.99, 30, ['elevation']);
    expect(off.null_reasons.elevation).toBe('outside_coverage');
    expect(off.provenance.elevation).toEqual({ layers: [{ source: 'usgs_3dep', layer_version: 'dem-1' }], formula_version: null });
  });
});

describe('nodata', () => {
  it('a nodata cell at the point answers no_data; a nodata neighbour falls back to the containing cell', () => {
    const engine = elevation(grid((col, row) => (col === 2 && row === 2 ? -9999 : 50)));
    const centre = ask(engine, -97, 30, TERRAIN);
    expect(centre.values.elevation).toBeNull();
    expect(centre.null_reasons).toEqual({ elevation: 'no_data', slope_degrees: 'no_data', aspect_degrees: 'no_data', aspect_cardinal: 'no_data' });
    // Between the centres of cells (2,2) and (3,2), inside cell (3,2).
    expect(ask(engine, -96.9985, 30, ['elevation']).values.elevation).toBe(50);
  });
});

describe("slope and aspect (Horn's method, meters per degree at the latitude)", () => {
  it('a plane rising 10 m per cell eastwards faces west at atan(10 / 192.97 m)', () => {
    const { values } = ask(elevation(grid((col) => 100 + 10 * col)), -97, 30, TERRAIN);
    expect(values.slope_degrees).toBeCloseTo((Math.atan(10 / CELL_X_M) * 180) / Math.PI, 4); // 2.97°
    expect(values.aspect_degrees).toBeCloseTo(270, 6);
    expect(values.aspect_cardinal).toBe('W');
  });

  it('a plane falling northwards faces north', () => {
    const { values } = ask(elevation(grid((_col, row) => 100 + 10 * row)), -97, 30, TERRAIN);
    expect(values.slope_degrees).toBeCloseTo((Math.atan(10 / CELL_Y_M) * 180) / Math.PI, 4);
    expect(values.aspect_degrees).toBeCloseTo(0, 6);
    expect(values.aspect_cardinal).toBe('N');
  });

  it('rising to the north-east faces south-west, weighted by the unequal cell sides', () => {
    const { values } = ask(elevation(grid((col, row) => 10 * col + 10 * (4 - row))), -97, 30, TERRAIN);
    const east = 10 / CELL_X_M;
    const north = 10 / CELL_Y_M;
    expect(values.slope_degrees).toBeCloseTo((Math.atan(Math.hypot(east, north)) * 180) / Math.PI, 4);
    expect(values.aspect_degrees).toBeCloseTo(180 + (Math.atan(east / north) * 180) / Math.PI, 4); // 228.96°
    expect(values.aspect_cardinal).toBe('SW');
  });

  it('flat ground: slope 0 and no aspect (reason flat)', () => {
    const flat = ask(elevation(grid(() => 42)), -97, 30, TERRAIN);
    expect(flat.values).toEqual({ elevation: 42, slope_degrees: 0, aspect_degrees: null, aspect_cardinal: null });
    expect(flat.null_reasons).toEqual({ aspect_degrees: 'flat', aspect_cardinal: 'flat' });
  });

  it('a GDAL geotransform georeferences like the bounding box', () => {
    const viaTransform = grid((col) => 100 + 10 * col, { bbox: undefined, geotransform: [-97.005, 0.002, 0, 30.005, 0, -0.002] });
    const rounded = (values: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(values).map(([k, v]) => [k, typeof v === 'number' ? Number(v.toFixed(6)) : v]));
    expect(rounded(ask(elevation(viaTransform), -96.999, 30, TERRAIN).values)).toEqual(
      rounded(ask(elevation(grid((col) => 100 + 10 * col)), -96.999, 30, TERRAIN).values),
    );
  });
});

describe('grids kept in their native CRS', () => {
  it('locate through `project` and measure slopes with `cellSizeM`', () => {
    // A made-up planar CRS: x = (lon + 97) x 1000, y = (lat - 30) x 1000, cells of 2 x 2 units of 30 m.
    const native = grid((col) => 100 + 3 * col, {
      bbox: undefined,
      geotransform: [-5, 2, 0, 5, 0, -2],
      project: (lon, lat) => [(lon + 97) * 1000, (lat - 30) * 1000],
      cellSizeM: () => [30, 30],
    });
    const { values } = ask(elevation(native), -97, 30, TERRAIN);
    expect(values.elevation).toBeCloseTo(106, 6);
    expect(values.slope_degrees).toBeCloseTo((Math.atan(3 / 30) * 180) / Math.PI, 6);
    expect(values.aspect_cardinal).toBe('W');
  });
});

describe('integer grids and CONUS-only grids', () => {
  it('rounds day counts to integers', () => {
    const engine = new Engine();
    engine.load(buildGridLayer('noaa_nclimgrid_daily', 'nc-1', grid(() => 87.6)));
    expect(ask(engine, -97, 30, ['days_above_32c_annual_count']).values.days_above_32c_annual_count).toBe(88);
  });

  it('landslide susceptibility is null outside_conus outside the lower 48', () => {
    const engine = new Engine();
    engine.load(buildGridLayer('usgs_landslide_susceptibility', 'ls-1', grid(() => 3, { bbox: [-180, -90, 180, 90] })));
    expect(ask(engine, -97, 30, ['landslide_susceptibility_index']).values.landslide_susceptibility_index).toBe(3);
    expect(ask(engine, -149.9, 61.2, ['landslide_susceptibility_index']).null_reasons.landslide_susceptibility_index).toBe('outside_conus');
  });
});
