// A grid cut into tiles, and each tile's cells into blocks loaded on demand, answers exactly as
// the same grid held whole (the plain path): at random points, across seams, next to no data.
// Then the rules a mosaic adds: which of overlapping tiles answers, and blocks loaded and held.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine, buildGridLayer, buildGridMosaic } from './engine.js';
import { GridBlocksNotLoadedError, type GridBlock, type GridBlockStore } from './grid-blocks.js';
import type { GridTileInput } from './grid-tile.js';

const TERRAIN = ['elevation', 'slope_degrees', 'aspect_degrees', 'aspect_cardinal'];
const CELL = 0.01;
const WEST = -97;
const NORTH = 31;
const WIDTH = 23;
const HEIGHT = 17;

/** A store that keeps nothing: every block is loaded for every evaluation (the smallest cache there is). */
class ForgetfulStore implements GridBlockStore {
  readonly complete = false;
  readonly loaded: number[] = [];
  constructor(private readonly blocks: ReadonlyMap<number, GridBlock>) {}
  peek(): GridBlock | undefined {
    return undefined;
  }
  async load(keys: readonly number[]): Promise<ReadonlyMap<number, GridBlock>> {
    this.loaded.push(...keys);
    return new Map(keys.map((key) => [key, this.blocks.get(key) ?? null]));
  }
}

interface Cut {
  tiles: GridTileInput[];
  blocks: Map<number, GridBlock>;
}

/** `values` (WIDTH x HEIGHT, north-up) cut at the given columns and rows into tiles of `blockSize` blocks. */
function cut(values: Float32Array, colCuts: number[], rowCuts: number[], blockSize: number): Cut {
  const cols = [0, ...colCuts, WIDTH];
  const rows = [0, ...rowCuts, HEIGHT];
  const tiles: GridTileInput[] = [];
  const blocks = new Map<number, GridBlock>();
  let firstBlock = 0;
  for (let tr = 0; tr + 1 < rows.length; tr++) {
    for (let tc = 0; tc + 1 < cols.length; tc++) {
      const [c0, c1, r0, r1] = [cols[tc], cols[tc + 1], rows[tr], rows[tr + 1]];
      const width = c1 - c0;
      const height = r1 - r0;
      const across = Math.ceil(width / blockSize);
      tiles.push({ name: `t${tr}${tc}`, width, height, geotransform: [WEST + c0 * CELL, CELL, 0, NORTH - r0 * CELL, 0, -CELL], noData: -9999, firstBlock });
      for (let by = 0; by * blockSize < height; by++) {
        for (let bx = 0; bx < across; bx++) {
          const bw = Math.min(blockSize, width - bx * blockSize);
          const bh = Math.min(blockSize, height - by * blockSize);
          const block = new Float32Array(bw * bh);
          for (let r = 0; r < bh; r++) {
            for (let c = 0; c < bw; c++) block[r * bw + c] = values[(r0 + by * blockSize + r) * WIDTH + c0 + bx * blockSize + c];
          }
          blocks.set(firstBlock + by * across + bx, block);
        }
      }
      firstBlock += across * Math.ceil(height / blockSize);
    }
  }
  return { tiles, blocks };
}

function terrainValues(seed: number, holes: number): Float32Array {
  const values = new Float32Array(WIDTH * HEIGHT);
  let state = seed;
  const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < values.length; i++) {
    const col = i % WIDTH;
    const row = Math.floor(i / WIDTH);
    values[i] = 200 + 7 * col - 3 * row + 20 * Math.sin(col / 3) * Math.cos(row / 4) + 5 * random();
  }
  for (let k = 0; k < holes; k++) values[Math.floor(random() * values.length)] = -9999;
  return values;
}

function answers(engine: Engine, points: { lon: number; lat: number }[]) {
  return engine.evaluateLoaded(points, TERRAIN).then((answer) => points.map((_, n) => answer.record(n)));
}

describe('a mosaic of tiles in blocks answers as the whole grid', () => {
  const tileCuts = fc.record({
    colCuts: fc.uniqueArray(fc.integer({ min: 1, max: WIDTH - 1 }), { minLength: 0, maxLength: 3 }).map((cuts) => cuts.sort((a, b) => a - b)),
    rowCuts: fc.uniqueArray(fc.integer({ min: 1, max: HEIGHT - 1 }), { minLength: 0, maxLength: 2 }).map((cuts) => cuts.sort((a, b) => a - b)),
    blockSize: fc.integer({ min: 1, max: 9 }),
    seed: fc.integer({ min: 1, max: 1_000_000 }),
    holes: fc.integer({ min: 0, max: 25 }),
  });
  // Off the outer edges by a hair, where the two paths' rounding may disagree on "inside".
  const point = fc.tuple(fc.double({ min: 1e-9, max: WIDTH - 1e-9, noNaN: true }), fc.double({ min: 1e-9, max: HEIGHT - 1e-9, noNaN: true }));

  it('elevation, slope and aspect at random points, seams and their neighbours included', async () => {
    await fc.assert(
      fc.asyncProperty(tileCuts, fc.array(point, { minLength: 1, maxLength: 40 }), async ({ colCuts, rowCuts, blockSize, seed, holes }, cells) => {
        const values = terrainValues(seed, holes);
        const whole = new Engine();
        whole.load(buildGridLayer('usgs_3dep', 'v', { width: WIDTH, height: HEIGHT, geotransform: [WEST, CELL, 0, NORTH, 0, -CELL], noData: -9999, values }));
        const { tiles, blocks } = cut(values, colCuts, rowCuts, blockSize);
        const store = new ForgetfulStore(blocks);
        const mosaic = new Engine();
        mosaic.load(buildGridMosaic('usgs_3dep', 'v', { tiles, blockSize, blocks: store }));
        // Points just either side of every seam, besides the random ones (off the lines through
        // cell centres, where the two paths' rounding may pick different neighbours of equal weight 0).
        const seamPoints = [...colCuts.map((c) => [c - 1e-6, HEIGHT / 2 + 0.123]), ...colCuts.map((c) => [c + 1e-6, 3.3]), ...rowCuts.map((r) => [WIDTH / 3, r + 1e-6])];
        const points = [...cells, ...seamPoints].map(([x, y]) => ({ lon: WEST + x * CELL, lat: NORTH - y * CELL }));
        const expected = await answers(whole, points);
        const actual = await answers(mosaic, points);
        actual.forEach((record, n) => {
          for (const field of TERRAIN) {
            const [want, got] = [expected[n].values[field], record.values[field]];
            if (typeof want === 'number') expect(got).toBeCloseTo(want, 6);
            else expect(got).toBe(want);
            expect(record.null_reasons[field]).toBe(expected[n].null_reasons[field]);
          }
        });
      }),
      { numRuns: 60 },
    );
  });
});

describe('overlapping tiles', () => {
  const flat = (value: number, width: number, height: number) => new Float32Array(width * height).fill(value);
  const mosaicOf = (tiles: (GridTileInput & { values: Float32Array })[]) => {
    const blockSize = Math.max(...tiles.map((tile) => Math.max(tile.width, tile.height)));
    const blocks = new Map(tiles.map((tile, i) => [i, tile.values as GridBlock]));
    const engine = new Engine();
    engine.load(buildGridMosaic('usgs_3dep', 'v', { tiles: tiles.map(({ values: _, ...tile }, i) => ({ ...tile, firstBlock: i })), blockSize, blocks: new ForgetfulStore(blocks) }));
    return engine;
  };
  const elevationAt = async (engine: Engine, lon: number, lat: number) => (await engine.evaluateLoaded([{ lon, lat }], ['elevation'])).record(0);

  it('the finer tile answers where it overlaps a coarser one, whatever their name order', async () => {
    const engine = mosaicOf([
      { name: 'a_fine', width: 4, height: 4, geotransform: [-97, 0.005, 0, 31, 0, -0.005], values: flat(500, 4, 4) },
      { name: 'b_coarse', width: 4, height: 4, geotransform: [-97, 0.01, 0, 31, 0, -0.01], values: flat(100, 4, 4) },
    ]);
    expect((await elevationAt(engine, -96.99, 30.99)).values.elevation).toBe(500);
    expect((await elevationAt(engine, -96.965, 30.965)).values.elevation).toBe(100);
  });

  it('of equal resolution, the later in name order answers', async () => {
    const engine = mosaicOf([
      { name: 'a', width: 4, height: 4, geotransform: [-97, 0.01, 0, 31, 0, -0.01], values: flat(100, 4, 4) },
      { name: 'b', width: 4, height: 4, geotransform: [-96.98, 0.01, 0, 31, 0, -0.01], values: flat(200, 4, 4) },
    ]);
    expect((await elevationAt(engine, -96.975, 30.985)).values.elevation).toBe(200);
    expect((await elevationAt(engine, -96.995, 30.985)).values.elevation).toBe(100);
  });

  it('a tile with no data at the point gives way to the next; no tile with data there answers no_data', async () => {
    const holed = flat(500, 4, 4).fill(-9999, 0, 8);
    const engine = mosaicOf([
      { name: 'a_fine', width: 4, height: 4, geotransform: [-97, 0.005, 0, 31, 0, -0.005], noData: -9999, values: holed },
      { name: 'b_coarse', width: 4, height: 4, geotransform: [-97, 0.01, 0, 31, 0, -0.01], noData: -9999, values: flat(100, 4, 4) },
    ]);
    expect((await elevationAt(engine, -96.999, 30.999)).values.elevation).toBe(100);
    expect((await elevationAt(engine, -96.999, 30.985)).values.elevation).toBe(500);
    const alone = mosaicOf([{ name: 'a', width: 4, height: 4, geotransform: [-97, 0.005, 0, 31, 0, -0.005], noData: -9999, values: holed }]);
    expect((await elevationAt(alone, -96.999, 30.999)).null_reasons.elevation).toBe('no_data');
    expect((await elevationAt(alone, -96.9, 30.999)).null_reasons.elevation).toBe('outside_coverage');
  });
});

describe('blocks loaded on demand', () => {
  const values = terrainValues(7, 0);
  const { tiles, blocks } = cut(values, [11], [8], 4);

  it('are loaded for the points asked, held for the evaluation, and a plain evaluate without them refuses', async () => {
    const store = new ForgetfulStore(blocks);
    const engine = new Engine();
    engine.load(buildGridMosaic('usgs_3dep', 'v', { tiles, blockSize: 4, blocks: store }));
    expect(() => engine.evaluate([{ lon: WEST + 0.05, lat: NORTH - 0.05 }], ['elevation'])).toThrow(GridBlocksNotLoadedError);
    const answer = await engine.evaluateLoaded([{ lon: WEST + 0.055, lat: NORTH - 0.055 }], ['elevation']);
    expect(answer.record(0).values.elevation).toBeTypeOf('number');
    // Cell (5, 5) of the first tile and its bilinear neighbours are all in block (1, 1) of the first tile.
    expect(new Set(store.loaded)).toEqual(new Set([1 * 3 + 1]));
    const blocksOfAllTiles = blocks.size;
    expect(blocksOfAllTiles).toBeGreaterThan(8);
  });
});
