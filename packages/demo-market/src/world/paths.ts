// Polylines for the linear features (power lines, pipelines, roads, rail, creeks): a straight
// run between two points bent by two sine waves, so features wander like real corridors but stay
// cheap to generate and never fold back on themselves.

import type { Random } from '../random.js';

export interface PathStyle {
  /** Distance between vertices, km. */
  stepKm: number;
  /** Amplitude of the long, gentle bend, km (a shorter wiggle of a quarter of it rides on top). */
  bendKm: number;
  /** Ends within this many km of a pinned end are pulled back onto the straight line. */
  taperKm?: number;
  pinStart?: boolean;
  pinEnd?: boolean;
}

/** A bent path from (ax, ay) to (bx, by), as [x0, y0, x1, y1, ...] km. */
export function bentPath(random: Random, ax: number, ay: number, bx: number, by: number, style: PathStyle): number[] {
  const length = Math.hypot(bx - ax, by - ay);
  const steps = Math.max(1, Math.ceil(length / style.stepKm));
  const ux = length > 0 ? (bx - ax) / length : 1;
  const uy = length > 0 ? (by - ay) / length : 0;
  const longWave = (2 * Math.PI) / random.uniform(15, 45);
  const shortWave = (2 * Math.PI) / random.uniform(2.5, 7);
  const longPhase = random.uniform(0, 2 * Math.PI);
  const shortPhase = random.uniform(0, 2 * Math.PI);
  const taper = style.taperKm ?? 3;
  const flat: number[] = [];
  for (let i = 0; i <= steps; i++) {
    const s = (length * i) / steps;
    let weight = 1;
    if (style.pinStart) weight = Math.min(weight, s / taper);
    if (style.pinEnd) weight = Math.min(weight, (length - s) / taper);
    const offset =
      weight * style.bendKm * (Math.sin(longWave * s + longPhase) + 0.25 * Math.sin(shortWave * s + shortPhase));
    flat.push(ax + ux * s - uy * offset, ay + uy * s + ux * offset);
  }
  return flat;
}

/**
 * The chord of the square [-half, half]^2 along the line through (px, py) at `angle` radians,
 * as its two end points, or null when the line misses the square.
 */
export function chord(px: number, py: number, angle: number, half: number): [number, number, number, number] | null {
  const dx = Math.cos(angle);
  const dy = Math.sin(angle);
  let t0 = -Infinity;
  let t1 = Infinity;
  for (const [p, d] of [
    [px, dx],
    [py, dy],
  ] as const) {
    if (Math.abs(d) < 1e-12) {
      if (p < -half || p > half) return null;
      continue;
    }
    const a = (-half - p) / d;
    const b = (half - p) / d;
    t0 = Math.max(t0, Math.min(a, b));
    t1 = Math.min(t1, Math.max(a, b));
  }
  if (!(t1 > t0)) return null;
  return [px + t0 * dx, py + t0 * dy, px + t1 * dx, py + t1 * dy];
}

/** Points along a polyline at random spacings within `spacingKm`, the first one within the first gap. */
export function pointsAlong(random: Random, flat: readonly number[], spacingKm: [number, number]): [number, number][] {
  const points: [number, number][] = [];
  let next = random.uniform(0, spacingKm[1]);
  let travelled = 0;
  for (let i = 0; i + 3 < flat.length; i += 2) {
    const ax = flat[i];
    const ay = flat[i + 1];
    const segment = Math.hypot(flat[i + 2] - ax, flat[i + 3] - ay);
    while (next <= travelled + segment) {
      const t = segment > 0 ? (next - travelled) / segment : 0;
      points.push([ax + t * (flat[i + 2] - ax), ay + t * (flat[i + 3] - ay)]);
      next += random.uniform(spacingKm[0], spacingKm[1]);
    }
    travelled += segment;
  }
  return points;
}
