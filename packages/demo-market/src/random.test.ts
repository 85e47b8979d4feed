import { describe, expect, it } from 'vitest';
import { hash4, hashInts, Random, WeightedTable } from './random.js';

const draws = (random: Random, n: number, draw: (r: Random) => number): number[] => Array.from({ length: n }, () => draw(random));
const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const sd = (xs: readonly number[]): number => {
  const m = mean(xs);
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
};

describe('Random', () => {
  it('repeats the same stream for the same seed and differs for another', () => {
    const a = draws(new Random(42), 1000, (r) => r.nextUint32());
    const b = draws(new Random(42), 1000, (r) => r.nextUint32());
    const c = draws(new Random(43), 1000, (r) => r.nextUint32());
    expect(a).toEqual(b);
    expect(a.filter((x, i) => x === c[i]).length).toBeLessThan(3);
  });

  it('pins the first outputs, so a change of algorithm cannot slip through', () => {
    const random = new Random(1);
    expect(draws(random, 3, (r) => r.nextUint32())).toEqual([3327004431, 1265966212, 2632596240]);
  });

  it('accepts any safe integer as seed, large and negative ones included', () => {
    const seeds = [0, -1, 2 ** 32, 2 ** 32 + 1, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
    const firsts = seeds.map((seed) => new Random(seed).nextUint32());
    expect(new Set(firsts).size).toBe(seeds.length);
  });

  it('draws uniforms in [0, 1) with the right mean and spread', () => {
    const xs = draws(new Random(7), 100_000, (r) => r.next());
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...xs)).toBeLessThan(1);
    expect(mean(xs)).toBeCloseTo(0.5, 2);
    expect(sd(xs)).toBeCloseTo(Math.sqrt(1 / 12), 2);
  });

  it('keeps uniform() and int() within their bounds, int() inclusive at both ends', () => {
    const random = new Random(8);
    const ints = draws(random, 10_000, (r) => r.int(3, 6));
    expect(new Set(ints)).toEqual(new Set([3, 4, 5, 6]));
    const xs = draws(random, 10_000, (r) => r.uniform(-2, 5));
    expect(Math.min(...xs)).toBeGreaterThanOrEqual(-2);
    expect(Math.max(...xs)).toBeLessThan(5);
  });

  it('draws normals (Box-Muller) with the asked mean and sd', () => {
    const xs = draws(new Random(9), 100_000, (r) => r.normal(10, 3));
    expect(mean(xs)).toBeCloseTo(10, 1);
    expect(sd(xs)).toBeCloseTo(3, 1);
    // About 95 % within two sd.
    expect(xs.filter((x) => Math.abs(x - 10) < 6).length / xs.length).toBeCloseTo(0.954, 2);
  });

  it('draws lognormals around their median', () => {
    const xs = draws(new Random(10), 50_000, (r) => r.lognormal(15, 1)).sort((a, b) => a - b);
    expect(xs[xs.length / 2]).toBeGreaterThan(14);
    expect(xs[xs.length / 2]).toBeLessThan(16);
    expect(Math.min(...xs)).toBeGreaterThan(0);
  });

  it('bounds jitter at about 2.45 sd with the asked sd', () => {
    const xs = draws(new Random(11), 50_000, (r) => r.jitter(2));
    expect(Math.max(...xs.map(Math.abs))).toBeLessThanOrEqual(2.45 * 2 + 1e-9);
    expect(sd(xs)).toBeCloseTo(2, 1);
  });

  it('draws Poisson counts with the asked mean', () => {
    const xs = draws(new Random(12), 50_000, (r) => r.poisson(3.5));
    expect(mean(xs)).toBeCloseTo(3.5, 1);
    expect(xs.every(Number.isInteger)).toBe(true);
  });

  it('picks uniformly, by weight, and by table', () => {
    const random = new Random(13);
    const count = (xs: readonly string[], x: string): number => xs.filter((y) => y === x).length / xs.length;
    const picks = draws(random, 30_000, (r) => ['a', 'b', 'c'].indexOf(r.pick(['a', 'b', 'c']))).map((i) => 'abc'[i]);
    expect(count(picks, 'c')).toBeCloseTo(1 / 3, 1);
    const weighted = Array.from({ length: 30_000 }, () => random.weightedPick(['a', 'b'], [3, 1]));
    expect(count(weighted, 'a')).toBeCloseTo(0.75, 1);
    const table = new WeightedTable([
      ['x', 1],
      ['y', 0],
      ['z', 4],
    ]);
    const tabled = Array.from({ length: 30_000 }, () => table.pick(random));
    expect(count(tabled, 'z')).toBeCloseTo(0.8, 1);
    expect(count(tabled, 'y')).toBe(0);
    expect(() => new WeightedTable([['x', 0]])).toThrow(RangeError);
    expect(random.chance(0)).toBe(false);
    expect(random.chance(1)).toBe(true);
  });
});

describe('hashInts', () => {
  it('is deterministic, order-sensitive and spread over 32 bits', () => {
    expect(hashInts(1, 2, 3)).toBe(hashInts(1, 2, 3));
    expect(hashInts(1, 2, 3)).not.toBe(hashInts(3, 2, 1));
    const hashes = new Set<number>();
    for (let x = -50; x < 50; x++) for (let y = -50; y < 50; y++) hashes.add(hashInts(7, x, y));
    expect(hashes.size).toBe(10_000);
    expect([...hashes].every((h) => Number.isInteger(h) && h >= 0 && h < 2 ** 32)).toBe(true);
  });

  it('agrees with hash4 on four 32-bit integers', () => {
    for (const parts of [
      [1, 2, 3, 4],
      [0, 0xb10c, -7, 12],
      [2 ** 31, -(2 ** 31), 5, -1],
    ]) {
      expect(hash4(parts[0], parts[1], parts[2], parts[3])).toBe(hashInts(...parts));
    }
  });
});
