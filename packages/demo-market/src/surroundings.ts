// What lies around one block of parcels: the towns, water and infrastructure features that can
// matter to any parcel in it, picked once per block from the world's indexes. Parcels are then
// measured against these short lists (see site.ts), which is what makes the generator fast.

import { hash4 } from './random.js';
import type { Box } from './spatial/grid.js';
import { LocalPoints } from './spatial/points.js';
import { LocalSegments } from './spatial/segments.js';
import { urbanInfluence, type Town } from './world/settlements.js';
import type { World } from './world/world.js';

/** Search radius of transmission_lines_within_radius_count, km. The catalog leaves it to the service. */
export const TRANSMISSION_RADIUS_KM = 3;
/** substations_radius_m, km. */
export const SUBSTATION_RADIUS_KM = 5;
/** nearest_rail_line_distance_m searches 5 km, as the catalog says. */
export const RAIL_SEARCH_KM = 5;
/** nearest_wetland_distance_m searches 500 m, as the catalog says. */
export const WETLAND_SEARCH_KM = 0.5;
/** Beyond this a river no longer shapes a parcel's facts (valley, flat ground, canopy, floodplain). */
export const RIVER_REACH_KM = 6;
/** Census-tract-like cells, km: opportunity zones and seismic categories are per tract. */
export const TRACT_KM = 2;

/** What lies around the current block; one instance per generator, updated block after block. */
export class Surroundings {
  /** Towns whose influence reaches the block or the tract cells it overlaps. */
  towns: Town[] = [];
  /** Towns running their own utility whose territory meets the block. */
  municipal: Town[] = [];
  readonly rivers = new LocalSegments();
  readonly wetlands = new LocalPoints();
  /** Also every substation within SUBSTATION_RADIUS_KM of the block. */
  readonly substations = new LocalPoints();
  /** Also every line within TRANSMISSION_RADIUS_KM of the block. */
  readonly transmission = new LocalSegments();
  readonly gas = new LocalSegments();
  readonly roads = new LocalSegments();
  readonly rail = new LocalSegments();
  readonly utilitySites = new LocalPoints();
  readonly districtSites = new LocalPoints();
  /** The last tract asked about and its urban influence: neighbouring parcels share tracts. */
  private tractX = NaN;
  private tractY = NaN;
  tractUrban = 0;
  tractZoneDraw = 0;
  tractSeismicDraw = 0;

  constructor(private readonly world: World) {}

  /** Picks what lies around `box` from the world's indexes. */
  update(box: Box): void {
    const { hydrology, networks, settlements } = this.world;
    const cx = (box.x0 + box.x1) / 2;
    const cy = (box.y0 + box.y1) / 2;
    const reach = Math.hypot(box.x1 - box.x0, box.y1 - box.y0) / 2 + TRACT_KM * Math.SQRT2;
    this.towns = settlements.towns.filter((t) => within(t, cx, cy, t.reachKm + reach));
    this.municipal = this.towns.filter((t) => t.municipalUtility >= 0 && within(t, cx, cy, t.utilityRadiusKm + reach));
    hydrology.rivers.near(box, RIVER_REACH_KM, 0, this.rivers);
    hydrology.wetlands.near(box, WETLAND_SEARCH_KM, 0, this.wetlands);
    networks.substations.near(box, Infinity, SUBSTATION_RADIUS_KM, this.substations);
    networks.transmission.index.near(box, Infinity, TRANSMISSION_RADIUS_KM, this.transmission);
    networks.gas.index.near(box, Infinity, 0, this.gas);
    networks.roads.index.near(box, Infinity, 0, this.roads);
    networks.rail.index.near(box, RAIL_SEARCH_KM, 0, this.rail);
    settlements.utilitySites.near(box, Infinity, 0, this.utilitySites);
    settlements.districtSites.near(box, Infinity, 0, this.districtSites);
    this.tractX = NaN;
    this.tractY = NaN;
  }

  /**
   * The tract containing (x, y): its urban influence (at its centre) and its two random draws,
   * for the opportunity-zone flag and the seismic category, which are per tract.
   */
  tractAt(x: number, y: number): this {
    const tractX = Math.floor(x / TRACT_KM);
    const tractY = Math.floor(y / TRACT_KM);
    if (tractX !== this.tractX || tractY !== this.tractY) {
      this.tractX = tractX;
      this.tractY = tractY;
      this.tractUrban = urbanInfluence(this.towns, (tractX + 0.5) * TRACT_KM, (tractY + 0.5) * TRACT_KM);
      this.tractZoneDraw = hash4(this.world.seed, 0x7a, tractX, tractY) / 4_294_967_296;
      this.tractSeismicDraw = hash4(this.world.seed, 0x5e, tractX, tractY) / 4_294_967_296;
    }
    return this;
  }
}

function within(town: Town, x: number, y: number, distance: number): boolean {
  const dx = town.x - x;
  const dy = town.y - y;
  return dx * dx + dy * dy <= distance * distance;
}
