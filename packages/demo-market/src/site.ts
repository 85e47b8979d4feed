// Measures a parcel's representative point: distances to water and infrastructure, the terrain
// surface, urban influence, serving utility, school district. Pure geometry, no randomness; the
// facts (with their noise, nulls and correlations) are made from these measurements in
// catalog-facts.ts and parcel-record.ts.

import {
  RAIL_SEARCH_KM,
  RIVER_REACH_KM,
  SUBSTATION_RADIUS_KM,
  TRANSMISSION_RADIUS_KM,
  WETLAND_SEARCH_KM,
  type Surroundings,
} from './surroundings.js';
import { CORE_UTILITY_RADIUS_KM, urbanInfluence } from './world/settlements.js';
import type { World } from './world/world.js';

/** One parcel's measurements; the generator reuses a single instance. */
export class Site {
  x = 0;
  y = 0;
  urban = 0;
  coreDistanceKm = 0;
  /** Infinity beyond RIVER_REACH_KM. */
  riverDistanceKm = 0;
  floodHalfWidthKm = 0;
  /** 0 main river, 1 other river, 2 creek (2 also when no river is within reach). */
  riverRank = 0;
  terrainElevationM = 0;
  gradientEast = 0;
  gradientNorth = 0;
  ridge = 0;
  hilliness = 0;
  /** Distance to the nearest wetland's edge (0 inside one), Infinity beyond the 500 m search. */
  wetlandDistanceKm = 0;
  substationDistanceKm = 0;
  substationVoltageKv = 0;
  substationsWithin = 0;
  transmissionDistanceKm = 0;
  transmissionVoltageKv = 0;
  transmissionLinesWithin = 0;
  gasDistanceKm = 0;
  gasOperator = '';
  roadDistanceKm = 0;
  roadName = '';
  /** Infinity beyond the 5 km search. */
  railDistanceKm = 0;
  /** Index into the world's utilityNames. */
  utility = 0;
  district = '';

  measure(world: World, around: Surroundings, x: number, y: number): this {
    const { hydrology, networks, settlements } = world;
    this.x = x;
    this.y = y;
    this.urban = urbanInfluence(around.towns, x, y);
    this.coreDistanceKm = Math.sqrt(x * x + y * y);

    this.riverDistanceKm = around.rivers.nearest(x, y, RIVER_REACH_KM);
    const river = around.rivers.hitFeature;
    this.floodHalfWidthKm = river >= 0 ? hydrology.floodHalfWidthKm[river] : 0.1;
    this.riverRank = river >= 0 ? hydrology.riverRank[river] : 2;
    this.wetlandDistanceKm = around.wetlands.nearest(x, y, WETLAND_SEARCH_KM);

    const surface = world.terrain.at(x, y);
    this.terrainElevationM = surface.elevationM;
    this.gradientEast = surface.gradientEast;
    this.gradientNorth = surface.gradientNorth;
    this.ridge = surface.ridge;
    this.hilliness = surface.hilliness;

    this.substationDistanceKm = around.substations.nearest(x, y);
    this.substationVoltageKv = networks.substationVoltageKv[around.substations.hitItem];
    this.substationsWithin = around.substations.countWithin(x, y, SUBSTATION_RADIUS_KM);
    this.transmissionDistanceKm = around.transmission.nearest(x, y);
    this.transmissionVoltageKv = networks.transmission.features[around.transmission.hitFeature].voltageKv;
    this.transmissionLinesWithin = around.transmission.countFeaturesWithin(x, y, TRANSMISSION_RADIUS_KM);
    this.gasDistanceKm = around.gas.nearest(x, y);
    this.gasOperator = networks.gas.features[around.gas.hitFeature].name;
    this.roadDistanceKm = around.roads.nearest(x, y);
    this.roadName = networks.roads.features[around.roads.hitFeature].name;
    this.railDistanceKm = around.rail.nearest(x, y, RAIL_SEARCH_KM);

    this.utility = this.utilityAt(world, around, x, y);
    around.districtSites.nearest(x, y);
    this.district = settlements.districtNames[around.districtSites.hitItem];
    return this;
  }

  /** The core's utility, else a town's own within its territory, else the countryside Voronoi cell's. */
  private utilityAt(world: World, around: Surroundings, x: number, y: number): number {
    if (this.coreDistanceKm <= CORE_UTILITY_RADIUS_KM) return 0;
    for (const town of around.municipal) {
      const dx = town.x - x;
      const dy = town.y - y;
      if (dx * dx + dy * dy <= town.utilityRadiusKm * town.utilityRadiusKm) return town.municipalUtility;
    }
    around.utilitySites.nearest(x, y);
    return world.settlements.utilityOfSite[around.utilitySites.hitItem];
  }
}
