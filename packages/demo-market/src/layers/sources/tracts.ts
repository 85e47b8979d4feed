// Counties and census tracts tiling the extent, with GEOIDs as the Census Bureau writes them:
// state (48, Texas) + county (3 digits, odd, as FIPS county codes are) + tract (6 digits), a
// string whose leading zeros matter ("48001000101"). Counties are 40 km squares; tracts are
// 4 km squares, split in four where the town is dense, as tracts follow population.

import { urbanInfluence } from '../../world/settlements.js';
import { tiles, type Tile } from '../shapes.js';
import type { LayerContext } from '../types.js';
import { rootName } from './names.js';

export const STATE_FIPS = '48';
export const COUNTY_KM = 40;
const TRACT_KM = 4;
const TRACTS_PER_COUNTY_SIDE = COUNTY_KM / TRACT_KM;

export interface County {
  i: number;
  j: number;
  fips: string;
  name: string;
}

export interface Tract extends Tile {
  county: County;
  geoid: string;
  /** Urban influence at the tract's centre. */
  urban: number;
}

/**
 * The county of lattice tile (i, j). FIPS codes are odd numbers 001..507 from (13 i + j) mod 254,
 * distinct for any two counties fewer than 13 tiles apart in either direction (520 km: more than
 * the largest market).
 */
export function countyAt(i: number, j: number): County {
  const index = (((13 * i + j) % 254) + 254) % 254;
  return { i, j, fips: String(2 * index + 1).padStart(3, '0'), name: `${rootName(0xc0, i, j)} County` };
}

export function countyOf(x: number, y: number): County {
  return countyAt(Math.floor(x / COUNTY_KM), Math.floor(y / COUNTY_KM));
}

export function* tracts(context: LayerContext): Generator<Tract> {
  const towns = context.world.settlements.towns;
  for (const t of tiles(context.extent, TRACT_KM)) {
    const county = countyAt(Math.floor(t.cx / COUNTY_KM), Math.floor(t.cy / COUNTY_KM));
    const a = t.i - county.i * TRACTS_PER_COUNTY_SIDE;
    const b = t.j - county.j * TRACTS_PER_COUNTY_SIDE;
    const base = (b * TRACTS_PER_COUNTY_SIDE + a + 1) * 100;
    const urban = urbanInfluence(towns, t.cx, t.cy);
    const geoid = (suffix: number): string => `${STATE_FIPS}${county.fips}${String(base + suffix).padStart(6, '0')}`;
    if (urban < 0.25) {
      yield { ...t, county, geoid: geoid(0), urban };
      continue;
    }
    const h = TRACT_KM / 2;
    for (let q = 0; q < 4; q++) {
      const x0 = t.x0 + (q % 2) * h;
      const y0 = t.y0 + Math.floor(q / 2) * h;
      const quarter = { i: t.i, j: t.j, x0, y0, x1: x0 + h, y1: y0 + h, cx: x0 + h / 2, cy: y0 + h / 2 };
      yield { ...quarter, county, geoid: geoid(q + 1), urban: urbanInfluence(towns, quarter.cx, quarter.cy) };
    }
  }
}
