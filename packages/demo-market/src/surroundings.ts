// What lies around one block of parcels: the towns, water and infrastructure features that can
// matter to any parcel in it, picked once per block from the world's indexes. Parcels are then
// measured against these short lists (see site.ts), which is what makes the generator fast.

import type { Box } from './spatial/grid.js';
import type { LocalPoints } from './spatial/points.js';
import type { LocalSegments } from './spatial/segments.js';
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

export class Surroundings {
  /** Towns whose influence reaches the block or the tract cells it overlaps. */
  readonly towns: Town[];
  /** Towns running their own utility whose territory meets the block. */
  readonly municipal: Town[];
  readonly rivers: LocalSegments;
  readonly wetlands: LocalPoints;
  /** Also every substation within SUBSTATION_RADIUS_KM of the block. */
  readonly substations: LocalPoints;
  /** Also every line within TRANSMISSION_RADIUS_KM of the block. */
  readonly transmission: LocalSegments;
  readonly gas: LocalSegments;
  readonly roads: LocalSegments;
  readonly rail: LocalSegments;
  readonly utilitySites: LocalPoints;
  readonly districtSites: LocalPoints;
  /** The last tract asked about and its urban influence: neighbouring parcels share tracts. */
  private tractX = NaN;
  private tractY = NaN;
  private tractUrban = 0;

  constructor(world: World, box: Box) {
    const { hydrology, networks, settlements } = world;
    const cx = (box.x0 + box.x1) / 2;
    const cy = (box.y0 + box.y1) / 2;
    const reach = Math.hypot(box.x1 - box.x0, box.y1 - box.y0) / 2 + TRACT_KM * Math.SQRT2;
    this.towns = settlements.towns.filter((t) => Math.hypot(t.x - cx, t.y - cy) <= t.reachKm + reach);
    this.municipal = settlements.towns.filter(
      (t) => t.municipalUtility >= 0 && Math.hypot(t.x - cx, t.y - cy) <= t.utilityRadiusKm + reach,
    );
    this.rivers = hydrology.rivers.near(box, RIVER_REACH_KM);
    this.wetlands = hydrology.wetlands.near(box, WETLAND_SEARCH_KM);
    this.substations = networks.substations.near(box, Infinity, SUBSTATION_RADIUS_KM);
    this.transmission = networks.transmission.index.near(box, Infinity, TRANSMISSION_RADIUS_KM);
    this.gas = networks.gas.index.near(box, Infinity);
    this.roads = networks.roads.index.near(box, Infinity);
    this.rail = networks.rail.index.near(box, RAIL_SEARCH_KM);
    this.utilitySites = settlements.utilitySites.near(box, Infinity);
    this.districtSites = settlements.districtSites.near(box, Infinity);
  }

  /** Urban influence at the centre of tract (tractX, tractY), in units of TRACT_KM. */
  urbanOfTract(tractX: number, tractY: number): number {
    if (tractX !== this.tractX || tractY !== this.tractY) {
      this.tractX = tractX;
      this.tractY = tractY;
      this.tractUrban = urbanInfluence(this.towns, (tractX + 0.5) * TRACT_KM, (tractY + 0.5) * TRACT_KM);
    }
    return this.tractUrban;
  }
}
