// The appraisal-roll facts of a parcel (zoning, land use, developable acres, assessed value) and
// its free facts (school district, last sale, listing). They are made after the catalog facts
// because they depend on them: industrial zoning clusters along rail and highways, floodplain,
// wetland and steep ground come off the developable acres and the value, and land is worth more
// per acre near the core.

import type { LandUse, ParcelFacts, Zoning } from './facts.js';
import type { Random } from './random.js';
import { clamp } from './round.js';
import type { Site } from './site.js';

const ZONING_ORDER: readonly Zoning[] = ['industrial', 'agricultural', 'commercial', 'residential', 'mixed_use', 'planned_development'];
/** Zoning mix (same order) in open country, on the urban fringe and in the core. */
const RURAL_MIX = [0.06, 0.7, 0.05, 0.12, 0.0, 0.07];
const FRINGE_MIX = [0.1, 0.1, 0.15, 0.4, 0.05, 0.2];
const CORE_MIX = [0.07, 0.0, 0.3, 0.3, 0.25, 0.08];

/** Land value per acre by zoning before location, USD. */
const BASE_VALUE_PER_ACRE: Record<Zoning, number> = {
  industrial: 70_000,
  agricultural: 9_000,
  commercial: 160_000,
  residential: 55_000,
  mixed_use: 200_000,
  planned_development: 35_000,
};

/** Typical improvement value by land use, USD; vacant and farm land carry none. */
const IMPROVEMENT_VALUE: Partial<Record<LandUse, number>> = {
  single_family: 280_000,
  multi_family: 2_500_000,
  retail: 1_200_000,
  office: 2_000_000,
  warehouse: 3_000_000,
  light_industrial: 1_800_000,
  heavy_industrial: 4_000_000,
};

const LAND_USE_BY_ZONING: Record<Zoning, { uses: LandUse[]; weights: number[] }> = {
  agricultural: { uses: ['pasture', 'cropland', 'ranchland', 'vacant', 'single_family'], weights: [0.4, 0.25, 0.2, 0.1, 0.05] },
  residential: { uses: ['single_family', 'vacant', 'multi_family', 'pasture'], weights: [0.55, 0.3, 0.1, 0.05] },
  commercial: { uses: ['retail', 'office', 'vacant', 'warehouse'], weights: [0.35, 0.2, 0.35, 0.1] },
  industrial: { uses: ['warehouse', 'light_industrial', 'vacant', 'heavy_industrial'], weights: [0.35, 0.3, 0.3, 0.05] },
  mixed_use: { uses: ['vacant', 'retail', 'multi_family', 'office'], weights: [0.4, 0.2, 0.2, 0.2] },
  planned_development: { uses: ['vacant', 'single_family', 'pasture'], weights: [0.6, 0.25, 0.15] },
};

const mixWeights = [0, 0, 0, 0, 0, 0];

export function fillParcelRecord(facts: ParcelFacts, site: Site, random: Random): void {
  const acres = facts.acres;

  // Zoning: the mix of the parcel's urban tier, then nudged by what is near and by size. The
  // true distances are used, not the facts, which may be unknown.
  const u = site.urban;
  const toFringe = clamp(u / 0.35, 0, 1);
  const toCore = clamp((u - 0.35) / 0.35, 0, 1);
  for (let i = 0; i < 6; i++) {
    mixWeights[i] = u < 0.35 ? RURAL_MIX[i] + toFringe * (FRINGE_MIX[i] - RURAL_MIX[i]) : FRINGE_MIX[i] + toCore * (CORE_MIX[i] - FRINGE_MIX[i]);
  }
  mixWeights[0] *= (1 + 2 * Math.exp(-site.railDistanceKm / 1.5)) * (1 + Math.exp(-site.roadDistanceKm));
  if (acres > 200) {
    mixWeights[1] *= 2;
    mixWeights[2] *= 0.3;
    mixWeights[4] *= 0.3;
    mixWeights[5] *= 1.5;
  }
  if (facts.within_floodplain_polygon) mixWeights[1] *= 1.5;
  const zoning = random.weightedPick(ZONING_ORDER, mixWeights);
  facts.zoning = zoning;

  const { uses, weights } = LAND_USE_BY_ZONING[zoning];
  let landUse = random.weightedPick(uses, weights);
  // Farm land follows the soil and the size: cropland on prime soils, ranches on big tracts.
  if (zoning === 'agricultural') {
    if (landUse === 'pasture' && facts.prime_farmland_classification === 'prime' && random.chance(0.5)) landUse = 'cropland';
    if (landUse !== 'ranchland' && acres > 150 && random.chance(0.5)) landUse = 'ranchland';
  }
  facts.land_use = landUse;

  // Developable acres: what floodplain, wetland, steep ground and setbacks leave.
  let lost = random.uniform(0, 0.06);
  const band = site.riverDistanceKm / site.floodHalfWidthKm;
  if (facts.within_floodplain_polygon) lost += random.uniform(0.25, 0.7);
  else if (band < 2) lost += random.uniform(0, 0.1);
  if (facts.intersects_wetland) lost += random.uniform(0.1, 0.35);
  else if (site.wetlandDistanceKm < 0.1) lost += random.uniform(0, 0.05);
  if (facts.slope_degrees > 8) lost += Math.min(0.6, (facts.slope_degrees - 8) / 20 + 0.1);
  facts.developable_acres = Math.floor(acres * (1 - Math.min(0.95, lost)) * 1000) / 1000;

  // Assessed value: land by zoning and location, less for constrained and big tracts, plus improvements.
  let perAcre = BASE_VALUE_PER_ACRE[zoning] * Math.exp(2.4 * u) * (1 + 0.8 * Math.exp(-site.coreDistanceKm / 12));
  if (facts.within_floodplain_polygon) perAcre *= 0.55;
  if (facts.intersects_wetland) perAcre *= 0.85;
  if (facts.slope_degrees > 8) perAcre *= 0.8;
  if (zoning === 'industrial' || zoning === 'commercial') perAcre *= 1 + 0.3 * Math.exp(-site.roadDistanceKm / 0.8);
  // Big tracts sell for less per acre: about (acres / 10)^-1/4, two square roots being cheaper than pow.
  perAcre *= clamp(1 / Math.sqrt(Math.sqrt(acres / 10)), 0.25, 2.5);
  const land = perAcre * acres * random.lognormal(1, 0.25);
  const improvement = IMPROVEMENT_VALUE[landUse];
  const improvements = improvement === undefined ? 0 : improvement * (1 + u) * random.lognormal(1, 0.5);
  facts.assessed_value_usd = Math.max(1000, Math.round((land + improvements) / 100) * 100);

  // Free facts.
  facts.school_district = site.district;
  facts.last_sale_year = random.chance(0.04) ? null : Math.max(1960, 2025 - Math.floor(-(14 - 6 * u) * Math.log(1 - random.next())));
  const listed = 0.045 + (acres > 40 ? 0.03 : 0) + (zoning === 'agricultural' && u > 0.1 ? 0.02 : 0);
  const draw = random.next();
  facts.listing_status = draw < listed ? 'listed' : draw < listed + 0.012 ? 'under_contract' : 'off_market';
}
