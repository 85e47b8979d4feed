// Water: a main river flowing north-west to south-east just south of the core (as the Colorado
// runs past downtown Austin), a few other rivers, many creeks, and wetlands. Each river carries a
// floodplain half-width; a parcel's floodplain flag, its flatter ground and its riparian canopy
// all follow from its distance to the nearest river, which is what makes them correlate.

import type { Random } from '../random.js';
import { PointIndex } from '../spatial/points.js';
import { SegmentIndexBuilder, type SegmentIndex } from '../spatial/segments.js';
import { bentPath, chord, pointsAlong } from './paths.js';

export interface Hydrology {
  rivers: SegmentIndex;
  /** Per river feature: half-width of its mapped floodplain, km. */
  floodHalfWidthKm: Float64Array;
  /** Per river feature: 0 main river, 1 other river, 2 creek. */
  riverRank: Uint8Array;
  /** Mapped wetlands as discs (radius in km). */
  wetlands: PointIndex;
}

export interface RiverLine {
  rank: 0 | 1 | 2;
  flat: number[];
}

export function buildHydrology(random: Random, halfKm: number): { hydrology: Hydrology; lines: RiverLine[] } {
  const reach = halfKm + 10;
  const lines: RiverLine[] = [];
  const halfWidths: number[] = [];

  lines.push({ rank: 0, flat: mainRiver(random, reach) });
  halfWidths.push(random.uniform(0.6, 0.8));

  const otherRivers = Math.max(2, Math.round(halfKm / 40));
  for (let i = 0; i < otherRivers; i++) {
    // Rivers of the region run roughly north-west to south-east too; start them away from the core.
    const px = random.uniform(-halfKm, halfKm);
    let py = random.uniform(-halfKm, halfKm);
    if (Math.hypot(px, py) < 20) py += py < 0 ? -20 : 20;
    const ends = chord(px, py, random.uniform(-0.9, -0.2), reach);
    if (!ends) continue;
    lines.push({ rank: 1, flat: bentPath(random, ...ends, { stepKm: 0.5, bendKm: random.uniform(2, 5) }) });
    halfWidths.push(random.uniform(0.35, 0.55));
  }

  const creeks = Math.round((2 * halfKm) ** 2 / 150);
  for (let i = 0; i < creeks; i++) {
    const x = random.uniform(-reach, reach);
    const y = random.uniform(-reach, reach);
    const angle = random.uniform(0, 2 * Math.PI);
    const length = random.uniform(6, 20);
    lines.push({
      rank: 2,
      flat: bentPath(random, x, y, x + length * Math.cos(angle), y + length * Math.sin(angle), { stepKm: 1, bendKm: random.uniform(0.5, 1.5) }),
    });
    halfWidths.push(random.uniform(0.12, 0.3));
  }

  const builder = new SegmentIndexBuilder();
  for (const line of lines) builder.addPolyline(line.flat);

  // Wetlands: riparian ones strung along the rivers inside their floodplains, and stock ponds and
  // prairie depressions scattered everywhere.
  const wx: number[] = [];
  const wy: number[] = [];
  const wr: number[] = [];
  lines.forEach((line, i) => {
    const spacing: [number, number] = line.rank === 2 ? [1, 3] : [0.4, 1.2];
    for (const [x, y] of pointsAlong(random, line.flat, spacing)) {
      const offset = random.uniform(-1, 1) * halfWidths[i];
      const angle = random.uniform(0, 2 * Math.PI);
      wx.push(x + offset * Math.cos(angle));
      wy.push(y + offset * Math.sin(angle));
      wr.push(Math.min(0.4, random.lognormal(line.rank === 2 ? 0.07 : 0.12, 0.5)));
    }
  });
  const ponds = Math.round((2 * reach) ** 2 * 0.9);
  for (let i = 0; i < ponds; i++) {
    wx.push(random.uniform(-reach, reach));
    wy.push(random.uniform(-reach, reach));
    wr.push(Math.min(0.3, random.lognormal(0.06, 0.6)));
  }

  return {
    hydrology: {
      rivers: builder.build(2),
      floodHalfWidthKm: Float64Array.from(halfWidths),
      riverRank: Uint8Array.from(lines.map((l) => l.rank)),
      wetlands: new PointIndex({ xs: wx, ys: wy, radii: wr }, 1),
    },
    lines,
  };
}

/** The main river as y = f(x): a gentle NW-SE fall, long bends and tight meanders, passing 1-3 km south of the core. */
function mainRiver(random: Random, reach: number): number[] {
  const waves = [
    { k: (2 * Math.PI) / random.uniform(60, 150), a: random.uniform(6, 15), p: random.uniform(0, 2 * Math.PI) },
    { k: (2 * Math.PI) / random.uniform(15, 35), a: random.uniform(2, 5), p: random.uniform(0, 2 * Math.PI) },
    { k: (2 * Math.PI) / random.uniform(3, 7), a: random.uniform(0.5, 1.2), p: random.uniform(0, 2 * Math.PI) },
  ];
  const tilt = -random.uniform(0.2, 0.45);
  const shape = (x: number): number => tilt * x + waves.reduce((sum, w) => sum + w.a * Math.sin(w.k * x + w.p), 0);
  const offset = -random.uniform(1, 3) - shape(0);
  const flat: number[] = [];
  for (let x = -reach; x <= reach; x += 0.5) flat.push(x, shape(x) + offset);
  return flat;
}
