// Point-data catalog facts of a parcel, made from its site measurements. Each fact has the
// catalog's type and unit and, where the catalog enumerates values, one of them. Correlations come
// from shared inputs: the river (floodplain, flat ground, canopy, wetlands), urban influence
// (housing, fiber, opportunity zones), the hills (slope, canopy, wind on the crests, thin soils).
//
// Nullable facts are null where the catalog's null meaning applies (no rail within 5 km, no
// wetland within 500 m) and, for about UNKNOWN_RATE of parcels each, at random: an index that
// was unavailable, so that buy-box `unknown` policies have something to do. Non-nullable facts
// are never null.

import type { ParcelFacts } from './facts.js';
import { WeightedTable, type Random } from './random.js';
import { clamp, round1, round2 } from './round.js';
import type { Site } from './site.js';
import { SUBSTATION_RADIUS_KM, type Surroundings } from './surroundings.js';
import type { World } from './world/world.js';

/** Share of each nullable fact that is unknown at random (about 3 %). */
export const UNKNOWN_RATE = 1 / 32;

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;
const SHRINK_SWELL = ['Low', 'Moderate', 'High', 'Very High'] as const;
const DROUGHT = ['D0', 'D1', 'D2', 'D3', 'D4'] as const;
const DEG = 180 / Math.PI;

export function fillCatalogFacts(facts: ParcelFacts, site: Site, random: Random, world: World, around: Surroundings): void {
  const nearRiver = Math.exp(-site.riverDistanceKm / 1.2);

  // Terrain. Valleys are cut into the surface near rivers, and floodplains are flat.
  const valleyDepthM = site.riverRank === 0 ? 30 : site.riverRank === 1 ? 18 : 8;
  facts.elevation = round1(site.terrainElevationM - valleyDepthM * Math.exp(-site.riverDistanceKm / 1.5) + random.jitter(1.5));
  const macroDeg = Math.atan(Math.sqrt(site.gradientEast * site.gradientEast + site.gradientNorth * site.gradientNorth)) * DEG;
  const microDeg = random.lognormal(0.6 + 1.8 * site.hilliness, 0.55);
  const slope = clamp((macroDeg + microDeg) * (1 - 0.65 * nearRiver), 0, 40);
  facts.slope_degrees = round2(slope);
  // Aspect: the downhill bearing of the surface, blurred by the local relief.
  const aspect = (Math.atan2(-site.gradientEast, -site.gradientNorth) * DEG + random.jitter(35) + 720) % 360;
  facts.aspect_degrees = round1(aspect) % 360;
  facts.aspect_cardinal = COMPASS[Math.round(aspect / 45) % 8];

  const band = site.riverDistanceKm / site.floodHalfWidthKm;
  const floodplain = random.chance(band <= 1 ? 0.9 : band <= 1.5 ? 0.4 : 0.015);
  facts.within_floodplain_polygon = floodplain;
  const wetland = site.wetlandDistanceKm;
  facts.intersects_wetland = wetland === 0;
  facts.nearest_wetland_distance_m = wetland === Infinity || isUnknown(random) ? null : round1(wetland * 1000);

  // Blackland clays east of the escarpment swell; the hill country's thin soils do not.
  const swell = 2.2 * (1 - site.hilliness) + random.jitter(0.6) - (floodplain ? 0.3 : 0);
  facts.soil_shrink_swell_class = isUnknown(random) ? null : SHRINK_SWELL[swell < 0.6 ? 0 : swell < 1.3 ? 1 : swell < 2 ? 2 : 3];
  facts.prime_farmland_classification = isUnknown(random) ? null : farmland(random, site, slope, floodplain);

  facts.tree_canopy_pct = isUnknown(random)
    ? null
    : round1(clamp(6 + 32 * site.hilliness + 30 * Math.exp(-site.riverDistanceKm / 0.5) + 1.2 * slope - 14 * site.urban + random.jitter(9), 0, 95));

  // Built environment.
  const roadUnknown = isUnknown(random);
  facts.nearest_major_road_name = roadUnknown ? null : site.roadName;
  facts.nearest_major_road_distance_m = roadUnknown ? null : round1(site.roadDistanceKm * 1000);
  const tract = around.tractAt(site.x, site.y);
  // Opportunity zones: lower-income tracts, more of them on the urban fringe and east of the core.
  facts.in_opportunity_zone = tract.tractZoneDraw < 0.05 + 0.18 * tract.tractUrban + (site.x > 0 ? 0.06 : 0);

  // Utilities.
  facts.nearest_transmission_line_distance_m = round1(site.transmissionDistanceKm * 1000);
  facts.nearest_transmission_line_voltage_kv = site.transmissionVoltageKv;
  facts.transmission_lines_within_radius_count = site.transmissionLinesWithin;
  facts.nearest_gas_pipeline_distance_m = round1(site.gasDistanceKm * 1000);
  facts.nearest_gas_pipeline_operator = site.gasOperator;
  facts.nearest_rail_line_distance_m = site.railDistanceKm === Infinity || isUnknown(random) ? null : round1(site.railDistanceKm * 1000);
  const substationUnknown = isUnknown(random);
  facts.nearest_substation_distance_m = substationUnknown ? null : round1(site.substationDistanceKm * 1000);
  facts.nearest_substation_max_voltage_kv = substationUnknown ? null : site.substationVoltageKv;
  // Count and radius go together: a null radius means no count was made.
  const countUnknown = isUnknown(random);
  facts.substations_within_radius_count = countUnknown ? null : site.substationsWithin;
  facts.substations_radius_m = countUnknown ? null : SUBSTATION_RADIUS_KM * 1000;
  const { utilityNames, utilityPrices } = world.settlements;
  facts.electric_utility_service_territory = isUnknown(random) ? null : utilityNames[site.utility];
  // The price is the serving utility's (EIA-861 is per utility); grid_price is derived from it.
  const price = isUnknown(random) ? null : utilityPrices[site.utility];
  facts.avg_retail_electricity_price_industrial_usd_per_kwh = price;
  facts.grid_price_usd_per_mwh = price === null ? null : round2(price * 1000);
  if (isUnknown(random)) {
    facts.fiber_provider_count = null;
    facts.fiber_broadband_available = null;
  } else {
    const providers = Math.min(6, random.poisson(0.15 + 3.4 * Math.sqrt(site.urban)));
    facts.fiber_provider_count = providers;
    facts.fiber_broadband_available = providers > 0;
  }

  // Climate: sunnier and windier to the west, windier on the crests; drier to the west with a
  // north-south swing.
  facts.ghi_annual_kwh_m2_day = isUnknown(random) ? null : round2(5.08 - 0.0009 * site.x - 0.0006 * site.y + random.jitter(0.02));
  facts.mean_wind_speed_100m_ms = isUnknown(random)
    ? null
    : round2(clamp(6.9 - 0.004 * site.x + 1.1 * site.ridge * site.hilliness + random.jitter(0.12), 4.5, 10.5));
  const drought = 1.2 - 0.015 * site.x + 0.8 * Math.sin(site.y / 12 + world.droughtPhase) + random.jitter(0.3);
  facts.drought_category = isUnknown(random) ? null : DROUGHT[clamp(Math.round(drought), 0, 4)];

  // Hazards.
  facts.seismic_design_category = isUnknown(random) ? null : tract.tractSeismicDraw < 0.08 ? 'B' : 'A';
  if (isUnknown(random)) {
    facts.housing_units_within_1km = null;
    facts.housing_units_density_per_km2 = null;
  } else {
    const mean = (2.5 + 2600 * site.urban * Math.sqrt(site.urban)) * random.lognormal(1, 0.3);
    const units = mean < 20 ? random.poisson(mean) : Math.max(0, Math.round(mean + Math.sqrt(mean) * random.jitter(1)));
    facts.housing_units_within_1km = units;
    facts.housing_units_density_per_km2 = round1(units / Math.PI);
  }
}

function isUnknown(random: Random): boolean {
  return random.oneIn32();
}

const FLOODPLAIN_FARMLAND = new WeightedTable([
  ['prime_if_conditions_met', 0.6],
  ['not_prime', 0.25],
  ['local_importance', 0.15],
]);
const FARMLAND_CLASSES = ['prime', 'statewide_importance', 'local_importance', 'unique', 'not_prime'];
/** Weights of FARMLAND_CLASSES; the first and last depend on the site and are set per parcel. */
const farmlandWeights = [0, 0.2, 0.1, 0.01, 0];

function farmland(random: Random, site: Site, slope: number, floodplain: boolean): string {
  if (site.urban > 0.6 && random.chance(0.6)) return 'not_prime';
  if (floodplain) {
    // Prime only where protected from flooding, as the SSURGO class says.
    return FLOODPLAIN_FARMLAND.pick(random);
  }
  if (slope > 8) return 'not_prime';
  const flatness = 1 - slope / 8;
  farmlandWeights[0] = 0.6 * (1 - site.hilliness) * flatness;
  farmlandWeights[4] = 0.15 + 0.5 * site.hilliness;
  return random.weightedPick(FARMLAND_CLASSES, farmlandWeights);
}
