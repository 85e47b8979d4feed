// Facts are rounded to the precision their sources publish: shorter files, and values that read
// like data rather than like floating-point noise. One function per precision, so the divisor is
// a constant (this runs a dozen times per parcel).

export function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

export function round2(value: number): number {
  return Math.round(value * 100) / 100;
}

export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

export function clamp(value: number, min: number, max: number): number {
  return value < min ? min : value > max ? max : value;
}
