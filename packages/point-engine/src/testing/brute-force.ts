// The reference the spatial index is checked against: every feature measured, nothing pruned.
// It shares only the measuring (geometry.ts) with the index, so any disagreement is the index's
// search: its boxes, its growing radius, its candidate filtering.

import { rulerAt } from '../geodesy.js';
import { measure, packGeometry, type PackedShape } from '../geometry.js';
import type { FeatureInput } from '../vector-index.js';

export class BruteForce {
  private readonly shapes: PackedShape[];

  constructor(features: readonly FeatureInput[]) {
    this.shapes = features.map((f) => packGeometry(f.geometry));
  }

  distances(lon: number, lat: number): number[] {
    const ruler = rulerAt(lat);
    return this.shapes.map((shape) => measure(shape, lon, lat, ruler, { distance: 0, lon: 0, lat: 0 }).distance);
  }

  /** Ids within the radius, ascending. */
  within(lon: number, lat: number, radiusM: number): number[] {
    return this.distances(lon, lat).flatMap((d, id) => (d <= radiusM ? [id] : []));
  }

  /** The nearest id passing `keep` (lowest id on ties) and its distance, or null. */
  nearest(lon: number, lat: number, keep: (id: number) => boolean, maxDistanceM = Infinity): { id: number; distance: number } | null {
    let best: { id: number; distance: number } | null = null;
    this.distances(lon, lat).forEach((distance, id) => {
      if (keep(id) && distance <= maxDistanceM && (best === null || distance < best.distance)) best = { id, distance };
    });
    return best;
  }
}
