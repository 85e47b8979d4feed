// Random places in the extent for features that the world does not already place: a count from
// a density (per 1,000 km²) with a floor, so that even a small market's layers hold the nearest
// feature every point asks about; optionally drawn towards towns (rejection on urban influence).

import type { Random } from '../../random.js';
import { urbanInfluence } from '../../world/settlements.js';
import { areaKm2 } from '../shapes.js';
import type { LayerContext } from '../types.js';

export interface ScatterOptions {
  perThousandKm2: number;
  min: number;
  /** 0: uniform; 1: only where the towns are (accept with probability (1 - u) + u * urban influence). */
  urban?: number;
}

export function* scatter(context: LayerContext, random: Random, options: ScatterOptions): Generator<[number, number, number]> {
  const { extent } = context;
  const count = Math.max(options.min, Math.round((areaKm2(extent) * options.perThousandKm2) / 1000));
  const towns = context.world.settlements.towns;
  const weight = options.urban ?? 0;
  for (let n = 0; n < count; ) {
    const x = random.uniform(extent.x0, extent.x1);
    const y = random.uniform(extent.y0, extent.y1);
    if (weight > 0 && !random.chance(1 - weight + weight * Math.sqrt(urbanInfluence(towns, x, y)))) continue;
    yield [x, y, n];
    n++;
  }
}

/** The town nearest (x, y) by influence, and that influence. */
export function nearestTown(context: LayerContext, x: number, y: number): { name: string; influence: number } {
  let best = context.world.settlements.towns[0];
  let influence = -1;
  for (const town of context.world.settlements.towns) {
    const value = town.weight * Math.exp(-Math.hypot(town.x - x, town.y - y) / town.scaleKm);
    if (value > influence) {
      influence = value;
      best = town;
    }
  }
  return { name: best.name, influence };
}
