import { describe, expect, it } from 'vitest';
import { Random } from '../random.js';
import type { Box } from './grid.js';
import { LocalPoints, PointIndex } from './points.js';
import { LocalSegments, SegmentIndexBuilder } from './segments.js';

// The per-block culling (`near`) must never drop a point or segment that a parcel inside the box
// would find by brute force: these tests compare both on random worlds, boxes and queries.

function segmentDistance(ax: number, ay: number, bx: number, by: number, x: number, y: number): number {
  const vx = bx - ax;
  const vy = by - ay;
  const l = vx * vx + vy * vy;
  const t = l > 0 ? Math.min(1, Math.max(0, ((x - ax) * vx + (y - ay) * vy) / l)) : 0;
  return Math.hypot(x - ax - t * vx, y - ay - t * vy);
}

function randomBox(random: Random): Box {
  const x0 = random.uniform(-25, 25);
  const y0 = random.uniform(-25, 25);
  const size = random.chance(0.1) ? 0 : random.uniform(0.1, 4);
  return { x0, y0, x1: x0 + size, y1: y0 + size * random.uniform(0.5, 1.5) };
}

describe('PointIndex', () => {
  it('finds, through near(box), the same nearest points and counts as brute force', () => {
    const random = new Random(3);
    for (const cellSize of [0.7, 3, 40]) {
      const n = 400;
      const xs = Array.from({ length: n }, () => random.uniform(-20, 20));
      const ys = Array.from({ length: n }, () => random.uniform(-20, 20));
      const radii = Array.from({ length: n }, () => (random.chance(0.5) ? 0 : random.uniform(0, 0.6)));
      const index = new PointIndex({ xs, ys, radii }, cellSize);
      // One list refilled box after box, as the generator uses it.
      const local = new LocalPoints();
      const brute = (x: number, y: number): number[] => xs.map((px, i) => Math.max(0, Math.hypot(px - x, ys[i] - y) - radii[i]));
      for (let b = 0; b < 150; b++) {
        const box = randomBox(random);
        const maxDistance = random.pick([Infinity, 0.5, 3]);
        const countRadius = random.pick([0, 2, 5]);
        index.near(box, maxDistance, countRadius, local);
        for (let p = 0; p < 10; p++) {
          const x = random.uniform(box.x0, box.x1);
          const y = random.uniform(box.y0, box.y1);
          const distances = brute(x, y);
          const best = Math.min(...distances);
          const expected = best <= maxDistance ? best : Infinity;
          const found = local.nearest(x, y, maxDistance);
          expect(found).toBeCloseTo(expected, 9);
          if (found !== Infinity) expect(distances[local.hitItem]).toBeCloseTo(best, 9);
          else expect(local.hitItem).toBe(-1);
          if (countRadius > 0) expect(local.countWithin(x, y, countRadius)).toBe(distances.filter((d) => d <= countRadius).length);
          expect(index.nearest(x, y, maxDistance)).toBeCloseTo(expected, 9);
        }
      }
    }
  });

  it('answers queries far outside its points and on an empty index', () => {
    const index = new PointIndex({ xs: [0, 1], ys: [0, 0] }, 1);
    expect(index.nearest(100, 0)).toBeCloseTo(99, 9);
    expect(index.hitItem).toBe(1);
    expect(index.nearest(100, 0, 50)).toBe(Infinity);
    const empty = new PointIndex({ xs: [], ys: [] }, 1);
    expect(empty.nearest(0, 0)).toBe(Infinity);
    expect(empty.near({ x0: 0, y0: 0, x1: 1, y1: 1 }, Infinity, 0, new LocalPoints()).size).toBe(0);
  });
});

describe('SegmentIndex', () => {
  it('finds, through near(box), the same nearest segments and feature counts as brute force', () => {
    const random = new Random(4);
    for (const cellSize of [0.8, 4, 60]) {
      const builder = new SegmentIndexBuilder();
      const segments: { feature: number; c: number[] }[] = [];
      for (let f = 0; f < 40; f++) {
        const flat = [random.uniform(-30, 30), random.uniform(-30, 30)];
        const steps = random.int(1, 25);
        for (let s = 0; s < steps; s++) flat.push(flat[flat.length - 2] + random.uniform(-3, 3), flat[flat.length - 1] + random.uniform(-3, 3));
        const feature = builder.addPolyline(flat);
        for (let i = 0; i + 3 < flat.length; i += 2) segments.push({ feature, c: flat.slice(i, i + 4) });
      }
      const index = builder.build(cellSize);
      const local = new LocalSegments();
      for (let b = 0; b < 150; b++) {
        const box = randomBox(random);
        const maxDistance = random.pick([Infinity, 0.5, 3]);
        const countRadius = random.pick([0, 1, 3]);
        index.near(box, maxDistance, countRadius, local);
        for (let p = 0; p < 10; p++) {
          const x = random.uniform(box.x0, box.x1);
          const y = random.uniform(box.y0, box.y1);
          const distances = segments.map(({ c }) => segmentDistance(c[0], c[1], c[2], c[3], x, y));
          const best = Math.min(...distances);
          const expected = best <= maxDistance ? best : Infinity;
          const found = local.nearest(x, y, maxDistance);
          expect(found).toBeCloseTo(expected, 9);
          if (found !== Infinity) {
            const nearestFeatures = segments.filter((_, i) => Math.abs(distances[i] - best) < 1e-9).map((s) => s.feature);
            expect(nearestFeatures).toContain(local.hitFeature);
          }
          if (countRadius > 0) {
            const features = new Set(segments.filter((_, i) => distances[i] <= countRadius).map((s) => s.feature));
            expect(local.countFeaturesWithin(x, y, countRadius)).toBe(features.size);
          }
          expect(index.nearest(x, y, maxDistance)).toBeCloseTo(expected, 9);
        }
      }
    }
  });
});
