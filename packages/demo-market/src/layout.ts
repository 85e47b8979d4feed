// Parcel layout. The land is cut into square blocks of about two miles, visited in a spiral
// outwards from the core, and each block is cut into lots by repeated straight cuts, each from one
// side of a lot to the opposite side at a slight slant. So lots tile the land without gaps or
// overlaps, stay convex quadrilaterals, and look like a real parcel map (rectangular-ish lots
// of varied size), and a market of N parcels is simply the first N lots of the spiral: nothing
// about a lot depends on N, and no more than one block's lots are held at a time.
//
// Each block has its own random stream (seed, block x, block y), so a block's lots and facts
// are the same whatever was generated before it.

import { ACRES_PER_SQUARE_KM } from './geo.js';
import type { Random } from './random.js';
import { urbanInfluence, type Town } from './world/settlements.js';

/** Side of a block, km (about two miles). */
export const BLOCK_KM = 3.2;

/** Lots are never cut below this, acres. */
const MIN_ACRES = 0.35;
/** Quads smaller than this (about 400 m across) take their parent's urban influence. */
const INHERIT_URBAN_BELOW_ACRES = 40;

/** cutBlock's stack, kept between calls (it runs once per block and never re-enters). */
const scratch = { stack: new Float64Array(8 * 64), urban: new Float64Array(64) };

/** Blocks (bx, by) in rings of growing Chebyshev distance around (0, 0); block (bx, by) is centred at (bx, by) * BLOCK_KM km. */
export function* spiralBlocks(): Generator<[number, number]> {
  yield [0, 0];
  for (let ring = 1; ; ring++) {
    // Clockwise from the north-west corner: top row, right column, bottom row, left column.
    for (let bx = -ring; bx < ring; bx++) yield [bx, ring];
    for (let by = ring; by > -ring; by--) yield [ring, by];
    for (let bx = ring; bx > -ring; bx--) yield [bx, -ring];
    for (let by = -ring; by < ring; by++) yield [-ring, by];
  }
}

/** Number of blocks in the rings 0..ring. */
export function blocksWithinRing(ring: number): number {
  return (2 * ring + 1) ** 2;
}

/**
 * Target lot size in acres at urban influence `urban`: typically 8 acres in the core, 50 in
 * open country, with ranches of a few hundred to two thousand acres out there. A lot is cut
 * until it is below a fresh draw of this, so lots come out at about half of it: a median of about
 * 20 acres for the demo market, many 5-40 acre lots, a tail past 1,000.
 */
function targetAcres(random: Random, urban: number): number {
  const rural = 1 - urban;
  if (random.chance(0.15 * rural * rural)) return random.lognormal(400, 0.9);
  return random.lognormal(50 * Math.pow(8 / 50, urban), 0.85);
}

/**
 * Cuts the block centred at (cx, cy) into lots. Returns the lots as a flat array of quads,
 * 8 numbers each: x, y (km) of the south-west, south-east, north-east and north-west corners,
 * counter-clockwise, as GeoJSON wants exterior rings.
 */
export function cutBlock(random: Random, cx: number, cy: number, towns: readonly Town[]): number[] {
  const h = BLOCK_KM / 2;
  const lots: number[] = [];
  // Depth-first over a stack of quads, 8 numbers each; lots come out in a stable, spatially
  // coherent order (neighbours in the file are neighbours on the ground).
  let stack = scratch.stack;
  // Urban influence at each quad's centre. Small quads inherit their parent's: within a few
  // hundred metres it hardly changes, and it would otherwise be computed for every cut.
  let urban = scratch.urban;
  put(stack, 0, cx - h, cy - h, cx + h, cy - h, cx + h, cy + h, cx - h, cy + h);
  urban[0] = urbanInfluence(towns, cx, cy);
  let top = 1;
  while (top > 0) {
    const slot = --top;
    const q = 8 * slot;
    const acres = quadAreaKm2(stack, q) * ACRES_PER_SQUARE_KM;
    if (acres > INHERIT_URBAN_BELOW_ACRES) {
      const mx = (stack[q] + stack[q + 2] + stack[q + 4] + stack[q + 6]) / 4;
      const my = (stack[q + 1] + stack[q + 3] + stack[q + 5] + stack[q + 7]) / 4;
      urban[slot] = urbanInfluence(towns, mx, my);
    }
    if (acres < 2 * MIN_ACRES || acres <= targetAcres(random, urban[slot])) {
      for (let i = 0; i < 8; i++) lots.push(stack[q + i]);
      continue;
    }
    if (top + 2 > urban.length) {
      const biggerStack = new Float64Array(stack.length * 2);
      biggerStack.set(stack);
      stack = biggerStack;
      const biggerUrban = new Float64Array(urban.length * 2);
      biggerUrban.set(urban);
      urban = biggerUrban;
      scratch.stack = stack;
      scratch.urban = urban;
    }
    // The quad at q is replaced by its second half, and its first half goes on top.
    cut(random, stack, q, q + 8);
    urban[slot + 1] = urban[slot];
    top += 2;
  }
  return lots;
}

/**
 * Cuts the quad at stack[q..q+8) across its longer direction, at 30-70 % with a slight slant:
 * the first half goes to stack[into..into+8), the second half overwrites stack[q..q+8).
 */
function cut(random: Random, stack: Float64Array, q: number, into: number): void {
  const x0 = stack[q];
  const y0 = stack[q + 1];
  const x1 = stack[q + 2];
  const y1 = stack[q + 3];
  const x2 = stack[q + 4];
  const y2 = stack[q + 5];
  const x3 = stack[q + 6];
  const y3 = stack[q + 7];
  const width = (distance(x0, y0, x1, y1) + distance(x3, y3, x2, y2)) / 2;
  const height = (distance(x0, y0, x3, y3) + distance(x1, y1, x2, y2)) / 2;
  const across = width > height * 1.15 ? true : height > width * 1.15 ? false : random.chance(0.5);
  const u = random.uniform(0.3, 0.7);
  const v = Math.min(0.8, Math.max(0.2, u + random.uniform(-0.06, 0.06)));
  if (across) {
    // A cut from the south edge (p0-p1) to the north edge (p3-p2): west lot first, then east.
    const ax = x0 + u * (x1 - x0);
    const ay = y0 + u * (y1 - y0);
    const bx = x3 + v * (x2 - x3);
    const by = y3 + v * (y2 - y3);
    put(stack, into, x0, y0, ax, ay, bx, by, x3, y3);
    put(stack, q, ax, ay, x1, y1, x2, y2, bx, by);
  } else {
    // A cut from the west edge (p0-p3) to the east edge (p1-p2): south lot first, then north.
    const ax = x0 + u * (x3 - x0);
    const ay = y0 + u * (y3 - y0);
    const bx = x1 + v * (x2 - x1);
    const by = y1 + v * (y2 - y1);
    put(stack, into, x0, y0, x1, y1, bx, by, ax, ay);
    put(stack, q, ax, ay, bx, by, x2, y2, x3, y3);
  }
}

function put(stack: Float64Array, at: number, ax: number, ay: number, bx: number, by: number, cx: number, cy: number, dx: number, dy: number): void {
  stack[at] = ax;
  stack[at + 1] = ay;
  stack[at + 2] = bx;
  stack[at + 3] = by;
  stack[at + 4] = cx;
  stack[at + 5] = cy;
  stack[at + 6] = dx;
  stack[at + 7] = dy;
}

function distance(ax: number, ay: number, bx: number, by: number): number {
  return Math.sqrt((bx - ax) * (bx - ax) + (by - ay) * (by - ay));
}

/** Area of the quad at stack[q..q+8) from its diagonals. */
function quadAreaKm2(stack: Float64Array, q: number): number {
  return Math.abs((stack[q] - stack[q + 4]) * (stack[q + 3] - stack[q + 7]) - (stack[q + 2] - stack[q + 6]) * (stack[q + 1] - stack[q + 5])) / 2;
}
