// Where people live: the urban core at the origin and satellite towns, and the regions that
// follow from them (retail electric utility territories, school districts). Urban influence
// drives most correlations of the market: small lots, housing, fiber and high values near towns.

import { CORE_NAME, CORE_UTILITY, SURNAMES, TOWN_ROOTS, TOWN_SUFFIXES, UTILITIES } from '../names.js';
import type { Random } from '../random.js';
import { PointIndex } from '../spatial/points.js';

export interface Town {
  x: number;
  y: number;
  name: string;
  /** Peak urban influence (the core has 1). */
  weight: number;
  /** Distance over which the influence falls by e, km. */
  scaleKm: number;
  /** Index into Settlements.utilityNames when the town runs its own utility, else -1. */
  municipalUtility: number;
  /** Radius of the municipal territory, km. */
  utilityRadiusKm: number;
  /** Beyond this distance the town's influence is below INFLUENCE_FLOOR, km. */
  reachKm: number;
}

export interface Settlements {
  /** towns[0] is the urban core at (0, 0). */
  towns: Town[];
  utilityNames: string[];
  utilityPrices: number[];
  /** Voronoi sites of the countryside utilities and the utility of each. */
  utilitySites: PointIndex;
  utilityOfSite: Int32Array;
  districtSites: PointIndex;
  districtNames: string[];
}

/** Influence below this is treated as none: culls far towns out of the per-parcel sum. */
export const INFLUENCE_FLOOR = 0.002;

/** The core's municipal utility reaches this far, km. */
export const CORE_UTILITY_RADIUS_KM = 14;

export function buildSettlements(random: Random, halfKm: number): Settlements {
  const area = (2 * halfKm) ** 2;
  const names = new Set<string>([CORE_NAME]);
  const uniqueName = (): string => {
    for (;;) {
      const name = `${random.pick(TOWN_ROOTS)} ${random.pick(TOWN_SUFFIXES)}`;
      if (!names.has(name) || names.size >= TOWN_ROOTS.length * TOWN_SUFFIXES.length) {
        names.add(name);
        return name;
      }
    }
  };

  const utilityNames = [CORE_UTILITY.name, ...UTILITIES.map((u) => u.name)];
  const utilityPrices = [CORE_UTILITY.priceUsdPerKwh, ...UTILITIES.map((u) => u.priceUsdPerKwh)];

  const towns: Town[] = [
    { x: 0, y: 0, name: CORE_NAME, weight: 1, scaleKm: 8, municipalUtility: 0, utilityRadiusKm: CORE_UTILITY_RADIUS_KM, reachKm: reachOf(1, 8) },
  ];
  const wanted = Math.round(area / 1200);
  for (let attempt = 0; towns.length - 1 < wanted && attempt < wanted * 30; attempt++) {
    const x = random.uniform(-halfKm, halfKm);
    const y = random.uniform(-halfKm, halfKm);
    // Satellites keep clear of the core and of each other, as real towns along a metro edge do.
    if (Math.hypot(x, y) < 14) continue;
    if (towns.some((t) => Math.hypot(t.x - x, t.y - y) < 8)) continue;
    const weight = Math.min(0.75, Math.max(0.12, random.lognormal(0.3, 0.45)));
    const name = uniqueName();
    let municipalUtility = -1;
    if (random.chance(0.2 + 0.5 * weight)) {
      municipalUtility = utilityNames.length;
      utilityNames.push(`City of ${name} Utilities`);
      utilityPrices.push(Math.round(random.uniform(0.068, 0.092) * 10_000) / 10_000);
    }
    const scaleKm = 1.2 + 3.5 * weight;
    towns.push({ x, y, name, weight, scaleKm, municipalUtility, utilityRadiusKm: 1.5 + 2.5 * weight, reachKm: reachOf(weight, scaleKm) });
  }

  // Countryside utilities: Voronoi cells, each given one of the co-ops or wires companies, so a
  // utility's territory is a patchwork, as co-op territories are.
  const siteCount = Math.max(8, Math.round(area / 700));
  const utilityXs: number[] = [];
  const utilityYs: number[] = [];
  const utilityOfSite = new Int32Array(siteCount);
  for (let i = 0; i < siteCount; i++) {
    utilityXs.push(random.uniform(-halfKm, halfKm));
    utilityYs.push(random.uniform(-halfKm, halfKm));
    utilityOfSite[i] = 1 + random.int(0, UTILITIES.length - 1);
  }

  // School districts: one per town, the core split in four, and rural districts in between.
  const districtXs: number[] = [];
  const districtYs: number[] = [];
  const districtNames: string[] = [];
  const coreDistricts = [CORE_NAME, `North ${CORE_NAME}`, `${random.pick(TOWN_ROOTS)} Valley`, `${random.pick(SURNAMES)}ville`];
  coreDistricts.forEach((name, i) => {
    const angle = (i * Math.PI) / 2 + random.uniform(-0.3, 0.3);
    const r = i === 0 ? 0 : random.uniform(9, 14);
    districtXs.push(r * Math.cos(angle));
    districtYs.push(r * Math.sin(angle));
    districtNames.push(`${name} ISD`);
  });
  for (const town of towns.slice(1)) {
    districtXs.push(town.x);
    districtYs.push(town.y);
    districtNames.push(`${town.name} ISD`);
  }
  const ruralDistricts = Math.round(area / 900);
  for (let i = 0; i < ruralDistricts; i++) {
    districtXs.push(random.uniform(-halfKm, halfKm));
    districtYs.push(random.uniform(-halfKm, halfKm));
    districtNames.push(`${random.pick(TOWN_ROOTS)} ${random.pick(TOWN_SUFFIXES)} ${random.chance(0.5) ? 'CISD' : 'ISD'}`);
  }

  return {
    towns,
    utilityNames,
    utilityPrices,
    utilitySites: new PointIndex({ xs: utilityXs, ys: utilityYs }, 30),
    utilityOfSite,
    districtSites: new PointIndex({ xs: districtXs, ys: districtYs }, 20),
    districtNames,
  };
}

function reachOf(weight: number, scaleKm: number): number {
  return scaleKm * Math.log(weight / INFLUENCE_FLOOR);
}

/** Urban influence at (x, y): 1 in the core, ~0.37 at 8 km, about 0 in open country. */
export function urbanInfluence(towns: readonly Town[], x: number, y: number): number {
  let sum = 0;
  for (let i = 0; i < towns.length; i++) {
    const t = towns[i];
    const dx = t.x - x;
    const dy = t.y - y;
    sum += t.weight * Math.exp(-Math.sqrt(dx * dx + dy * dy) / t.scaleKm);
  }
  return sum > 1 ? 1 : sum;
}
