// A small seeded PRNG and the draws the generator needs. Math.random cannot be seeded, and the
// demo market must be the same byte for byte for the same seed on every machine, so every random
// choice in this package goes through this class.
//
// xoshiro128** (Blackman & Vigna): four 32-bit words of state, good statistical quality, and only
// 32-bit integer operations, which V8 runs without allocating. The state is filled from the seed
// with splitmix32 so that nearby seeds (1, 2, 3) give unrelated streams.

const TWO_POW_32 = 4_294_967_296;

/**
 * Folds integers into one 32-bit hash (murmur3's finaliser after each word). Used to derive
 * independent streams from (seed, block x, block y) and to give grid cells stable values, so a
 * part of the market never depends on how much of the rest was generated before it.
 */
export function hashInts(...parts: readonly number[]): number {
  let h = 0x811c9dc5;
  for (const part of parts) {
    // Safe integers beyond 32 bits (large seeds) contribute both halves.
    h = mix32(h ^ (part >>> 0));
    const high = Math.floor(part / TWO_POW_32) | 0;
    if (high !== 0 && high !== -1) h = mix32(h ^ high);
  }
  return h >>> 0;
}

/** hashInts for exactly four integers (all within 32 bits), without the rest-parameter array: it runs per parcel. */
export function hash4(a: number, b: number, c: number, d: number): number {
  let h = mix32(0x811c9dc5 ^ (a >>> 0));
  h = mix32(h ^ (b >>> 0));
  h = mix32(h ^ (c >>> 0));
  return mix32(h ^ (d >>> 0));
}

function mix32(value: number): number {
  let h = Math.imul(value ^ (value >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  /** Box-Muller makes normals in pairs; the second one waits here for the next call. */
  private spareNormal = 0;
  private hasSpare = false;
  /** Unused random bits for oneIn32, and how many 5-bit draws they still hold. */
  private bitPool = 0;
  private bitDraws = 0;

  constructor(seed: number) {
    let state = hashInts(seed);
    const next = (): number => {
      state = (state + 0x9e3779b9) | 0;
      return mix32(state);
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    // xoshiro must never sit in the all-zero state; splitmix32 makes it practically impossible,
    // this makes it impossible.
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** The next 32 random bits as an unsigned integer. */
  nextUint32(): number {
    const b = this.b;
    const result = Math.imul(rotl(Math.imul(b, 5), 7), 9);
    const t = b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result >>> 0;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.nextUint32() / TWO_POW_32;
  }

  /** Uniform in [min, max). */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** Uniform integer in [min, max], both inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  /**
   * True with probability 1/32, from 5 bits of a shared 32-bit draw: the generator asks this of
   * every nullable fact of every parcel, and six answers per draw are much cheaper than one.
   */
  oneIn32(): boolean {
    if (this.bitDraws === 0) {
      this.bitPool = this.nextUint32();
      this.bitDraws = 6;
    }
    const hit = (this.bitPool & 31) === 0;
    this.bitPool >>>= 5;
    this.bitDraws--;
    return hit;
  }

  /** Normal deviate (Box-Muller, polar-free form: one log, one sqrt, one sin/cos pair per two draws). */
  normal(mean = 0, sd = 1): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return mean + sd * this.spareNormal;
    }
    // 1 - next() is in (0, 1], so the log is finite.
    const radius = Math.sqrt(-2 * Math.log(1 - this.next()));
    const angle = 2 * Math.PI * this.next();
    this.spareNormal = radius * Math.sin(angle);
    this.hasSpare = true;
    return mean + sd * radius * Math.cos(angle);
  }

  /**
   * Bell-shaped noise with the given sd: a triangular deviate (sum of two uniforms), bounded at
   * +-2.45 sd. Three times cheaper than a normal; used for the jitter on facts, where the shape of
   * the tails does not matter.
   */
  jitter(sd: number): number {
    return (this.next() + this.next() - 1) * 2.449489742783178 * sd;
  }

  /** Lognormal given by its median (exp of mu) and the sd of its log: the natural way to say "typically 15, sometimes 10x more". */
  lognormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Poisson count by inversion; the generator only asks for small means (< 30). */
  poisson(mean: number): number {
    const limit = Math.exp(-mean);
    let product = this.next();
    let count = 0;
    while (product > limit) {
      product *= this.next();
      count++;
    }
    return count;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** Picks items[i] with probability weights[i] / sum(weights). Weights need not sum to 1. */
  weightedPick<T>(items: readonly T[], weights: readonly number[]): T {
    let total = 0;
    for (let i = 0; i < weights.length; i++) total += weights[i];
    let target = this.next() * total;
    for (let i = 0; i < items.length; i++) {
      target -= weights[i];
      if (target < 0) return items[i];
    }
    return items[items.length - 1];
  }
}

function rotl(value: number, shift: number): number {
  return (value << shift) | (value >>> (32 - shift));
}

/** A fixed distribution drawn from many times: the cumulative weights are summed once. */
export class WeightedTable<T> {
  private readonly items: T[];
  private readonly cumulative: Float64Array;

  constructor(entries: readonly (readonly [T, number])[]) {
    this.items = entries.map(([item]) => item);
    this.cumulative = new Float64Array(entries.length);
    let total = 0;
    entries.forEach(([, weight], i) => {
      if (!(weight >= 0)) throw new RangeError('weights must be non-negative numbers');
      total += weight;
      this.cumulative[i] = total;
    });
    if (total <= 0) throw new RangeError('at least one weight must be positive');
  }

  pick(random: Random): T {
    const target = random.next() * this.cumulative[this.cumulative.length - 1];
    for (let i = 0; i < this.cumulative.length; i++) {
      if (target < this.cumulative[i]) return this.items[i];
    }
    return this.items[this.items.length - 1];
  }
}
