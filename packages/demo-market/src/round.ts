// Facts are rounded to the precision their sources publish: shorter files, and values that read
// like data rather than like floating-point noise.

const FACTORS = [1, 10, 100, 1000, 10_000];

export function round(value: number, places: 0 | 1 | 2 | 3 | 4): number {
  const factor = FACTORS[places];
  return Math.round(value * factor) / factor;
}

export function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}
