// Distance to the nearest river or creek (km) and its rank, for samplers called cell after cell:
// the rivers near the current 2 km tile are picked once from the world's index and reused.

import { LocalSegments } from '../../spatial/segments.js';
import { RIVER_REACH_KM } from '../../surroundings.js';
import type { World } from '../../world/world.js';

const TILE_KM = 2;

export class RiverDistance {
  private readonly local = new LocalSegments();
  private tileX = NaN;
  private tileY = NaN;
  /** Rank (0 main river, 1 river, 2 creek) and floodplain half-width (km) of the last river found. */
  rank = 2;
  halfWidthKm = 0.1;

  constructor(private readonly world: World) {}

  /** Km to the nearest river, Infinity beyond RIVER_REACH_KM. */
  at(x: number, y: number): number {
    const tx = Math.floor(x / TILE_KM);
    const ty = Math.floor(y / TILE_KM);
    if (tx !== this.tileX || ty !== this.tileY) {
      this.tileX = tx;
      this.tileY = ty;
      const box = { x0: tx * TILE_KM, y0: ty * TILE_KM, x1: (tx + 1) * TILE_KM, y1: (ty + 1) * TILE_KM };
      this.world.hydrology.rivers.near(box, RIVER_REACH_KM, 0, this.local);
    }
    const distance = this.local.nearest(x, y, RIVER_REACH_KM);
    const river = this.local.hitFeature;
    this.rank = river >= 0 ? this.world.hydrology.riverRank[river] : 2;
    this.halfWidthKm = river >= 0 ? this.world.hydrology.floodHalfWidthKm[river] : 0.1;
    return distance;
  }
}
