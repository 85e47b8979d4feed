import { describe, expect, it } from 'vitest';
import { ACRES_PER_SQUARE_KM } from './geo.js';
import { BLOCK_KM, blocksWithinRing, cutBlock, spiralBlocks } from './layout.js';
import { Random } from './random.js';
import type { Town } from './world/settlements.js';

const core: Town = { x: 0, y: 0, name: 'Core', weight: 1, scaleKm: 8, municipalUtility: -1, utilityRadiusKm: 0, reachKm: 50 };

function quads(lots: readonly number[]): number[][] {
  const out: number[][] = [];
  for (let k = 0; k < lots.length; k += 8) out.push(lots.slice(k, k + 8));
  return out;
}

/** Signed shoelace area, positive when counter-clockwise. */
function signedArea(q: readonly number[]): number {
  let twice = 0;
  for (let i = 0; i < 4; i++) {
    const j = (i + 1) % 4;
    twice += q[2 * i] * q[2 * j + 1] - q[2 * j] * q[2 * i + 1];
  }
  return twice / 2;
}

function isConvex(q: readonly number[]): boolean {
  for (let i = 0; i < 4; i++) {
    const [ax, ay, bx, by, cx, cy] = [0, 1, 2].flatMap((k) => [q[2 * ((i + k) % 4)], q[2 * ((i + k) % 4) + 1]]);
    if ((bx - ax) * (cy - by) - (by - ay) * (cx - bx) <= 0) return false;
  }
  return true;
}

describe('spiralBlocks', () => {
  it('visits every block once, ring by ring outwards from the core', () => {
    const seen = new Set<string>();
    let count = 0;
    let lastRing = 0;
    for (const [bx, by] of spiralBlocks()) {
      if (count === blocksWithinRing(6)) break;
      const ring = Math.max(Math.abs(bx), Math.abs(by));
      expect(ring).toBeGreaterThanOrEqual(lastRing);
      lastRing = ring;
      seen.add(`${bx},${by}`);
      count++;
    }
    expect(seen.size).toBe(blocksWithinRing(6));
    for (let bx = -6; bx <= 6; bx++) for (let by = -6; by <= 6; by++) expect(seen.has(`${bx},${by}`)).toBe(true);
  });
});

describe('cutBlock', () => {
  it('tiles the block with convex, counter-clockwise quadrilaterals', () => {
    for (const [cx, cy] of [
      [0, 0],
      [BLOCK_KM * 3, -BLOCK_KM],
      [BLOCK_KM * 12, BLOCK_KM * 9],
    ]) {
      const lots = quads(cutBlock(new Random(cx * 31 + cy), cx, cy, [core]));
      expect(lots.length).toBeGreaterThan(1);
      const total = lots.reduce((sum, q) => sum + signedArea(q), 0);
      expect(total).toBeCloseTo(BLOCK_KM * BLOCK_KM, 9);
      for (const q of lots) {
        expect(signedArea(q)).toBeGreaterThan(0);
        expect(isConvex(q)).toBe(true);
        for (let i = 0; i < 8; i += 2) {
          expect(Math.abs(q[i] - cx)).toBeLessThanOrEqual(BLOCK_KM / 2 + 1e-9);
          expect(Math.abs(q[i + 1] - cy)).toBeLessThanOrEqual(BLOCK_KM / 2 + 1e-9);
        }
      }
    }
  });

  it('cuts smaller lots near the core than in open country', () => {
    const meanAcres = (cx: number): number => {
      const lots = quads(cutBlock(new Random(cx), cx, 0, [core]));
      return (BLOCK_KM * BLOCK_KM * ACRES_PER_SQUARE_KM) / lots.length;
    };
    const near = [0, 1, 2].map((i) => meanAcres(i * BLOCK_KM));
    const far = [20, 21, 22].map((i) => meanAcres(i * BLOCK_KM));
    expect(Math.max(...near)).toBeLessThan(Math.min(...far));
  });

  it('is a function of its random stream', () => {
    expect(cutBlock(new Random(5), 0, 0, [core])).toEqual(cutBlock(new Random(5), 0, 0, [core]));
  });
});
