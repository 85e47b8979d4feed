// Power layers: the world's transmission lines and substations (as the parcels' grid facts were
// measured on), power plants, proposed generators, service territories with their retail price,
// eGRID and interconnection queues (counties in ERCOT, and the other ISOs' footprints where they
// really are, so their fields answer there and null `not_inside` in this Texas market).

import { CORE_UTILITY_RADIUS_KM } from '../../world/settlements.js';
import { areaKm2, box, degreeBox, inside, lineString, point, tiles, touches } from '../shapes.js';
import type { DemoLayerFeature, LayerContext, LayerRecipe } from '../types.js';
import { placeName, pickBy, surname } from './names.js';
import { scatter } from './scatter.js';
import { COUNTY_KM, countyAt } from './tracts.js';

const VOLTAGE_CLASS: Record<number, string> = { 69: 'UNDER 100', 138: '100-161', 345: '345' };
const LINE_OWNERS = ['Lone Star Power & Light', 'Central Texas Delivery Co', 'Capital City Energy', 'Hill Country Transmission Services', 'Brazos Plains Electric Co-op'];

function* transmissionLines(context: LayerContext): Generator<DemoLayerFeature> {
  const lines = context.world.networks.transmission.features;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (!touches(context.extent, line.flat, 15)) continue;
    yield {
      geometry: lineString(line.flat),
      properties: { voltage_kv: line.voltageKv, voltage_class: VOLTAGE_CLASS[line.voltageKv], status: 'IN SERVICE', owner: pickBy(LINE_OWNERS, 0x70, index) },
    };
  }
}

function* substations(context: LayerContext): Generator<DemoLayerFeature> {
  const { substationPoints, substationVoltageKv } = context.world.networks;
  for (let i = 0; i < substationPoints.length; i++) {
    const [x, y] = substationPoints[i];
    if (!inside(context.extent, x, y, 15)) continue;
    yield { geometry: point(x, y), properties: { name: `${surname(0x55, i)} Substation`, max_voltage_kv: substationVoltageKv[i], status: 'IN SERVICE' } };
  }
}

const FUELS: readonly { fuel: string; mw: [number, number]; weight: number; suffix: string }[] = [
  { fuel: 'Natural Gas', mw: [50, 1200], weight: 0.35, suffix: 'Energy Center' },
  { fuel: 'Solar', mw: [5, 250], weight: 0.3, suffix: 'Solar' },
  { fuel: 'Wind', mw: [50, 300], weight: 0.12, suffix: 'Wind Farm' },
  { fuel: 'Batteries', mw: [10, 200], weight: 0.15, suffix: 'Storage' },
  { fuel: 'Coal', mw: [400, 1700], weight: 0.03, suffix: 'Power Plant' },
  { fuel: 'Landfill Gas', mw: [2, 12], weight: 0.05, suffix: 'LFG Plant' },
];

function* powerPlants(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('eia_860_power_plants');
  for (const [x, y, n] of scatter(context, random, { perThousandKm2: 6, min: 3, urban: 0.3 })) {
    const plant = random.weightedPick(FUELS, FUELS.map((f) => f.weight));
    yield {
      geometry: point(x, y),
      properties: { name: `${placeName(0x60, n, context.seed)} ${plant.suffix}`, primary_fuel: plant.fuel, capacity_mw: Math.round(random.uniform(...plant.mw) * 10) / 10 },
    };
  }
}

function* proposedGenerators(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('eia_860m_proposed_generators');
  for (const [x, y, n] of scatter(context, random, { perThousandKm2: 4, min: 2 })) {
    yield { geometry: point(x, y), properties: { name: `${placeName(0x61, n, context.seed)} ${random.pick(['Solar', 'Storage', 'Wind', 'Peaker'])}` } };
  }
}

/** The utility serving (x, y), as the parcels' facts: the core's, a town's own, else the countryside cell's. */
function utilityAt(context: LayerContext, x: number, y: number): number {
  const { settlements } = context.world;
  if (Math.hypot(x, y) <= CORE_UTILITY_RADIUS_KM) return 0;
  for (const town of settlements.towns) {
    if (town.municipalUtility >= 0 && Math.hypot(town.x - x, town.y - y) <= town.utilityRadiusKm) return town.municipalUtility;
  }
  settlements.utilitySites.nearest(x, y);
  return settlements.utilityOfSite[settlements.utilitySites.hitItem];
}

/**
 * Territories on 1 km cells (2 km for the largest markets, to keep the files modest); EIA-861
 * prices are per utility, so the sales layer shares the cells.
 */
function* territories(context: LayerContext, properties: (utility: number) => DemoLayerFeature['properties']): Generator<DemoLayerFeature> {
  for (const t of tiles(context.extent, areaKm2(context.extent) > 40_000 ? 2 : 1)) yield { geometry: box(t.x0, t.y0, t.x1, t.y1), properties: properties(utilityAt(context, t.cx, t.cy)) };
}

/** Where the fields of the ISOs other than ERCOT are answered: inside their footprints, far from the market. */
export const ISO_FOOTPRINTS: Readonly<Record<string, [number, number, number, number]>> = {
  SPP: [-100, 34.5, -95, 37],
  MISO: [-96, 41, -89, 46.5],
  PJM: [-83, 37.5, -75.5, 41.5],
  CAISO: [-122, 34, -116.5, 38.5],
};

function* queues(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('lbnl_queued_up');
  const { extent } = context;
  for (let j = Math.floor(extent.y0 / COUNTY_KM); j * COUNTY_KM < extent.y1; j++) {
    for (let i = Math.floor(extent.x0 / COUNTY_KM); i * COUNTY_KM < extent.x1; i++) {
      const county = countyAt(i, j);
      yield {
        geometry: box(i * COUNTY_KM, j * COUNTY_KM, (i + 1) * COUNTY_KM, (j + 1) * COUNTY_KM),
        properties: { area_kind: 'county', name: county.name, active_capacity_mw: Math.round(random.lognormal(1400, 0.8)) },
      };
    }
  }
  yield { geometry: box(extent.x0 - 100, extent.y0 - 100, extent.x1 + 100, extent.y1 + 100), properties: { area_kind: 'iso', iso: 'ERCOT', active_capacity_mw: 318_400 } };
  const capacity: Record<string, number> = { SPP: 121_700, MISO: 308_300, PJM: 286_500, CAISO: 225_100 };
  for (const [iso, bounds] of Object.entries(ISO_FOOTPRINTS)) {
    yield { geometry: degreeBox(...bounds), properties: { area_kind: 'iso', iso, active_capacity_mw: capacity[iso] } };
  }
}

export const GRID_NETWORK_RECIPES: readonly LayerRecipe[] = [
  { source: 'hifld_transmission_lines', format: 'geojson', features: transmissionLines },
  { source: 'hifld_substations', format: 'geojson', features: substations },
  { source: 'eia_860_power_plants', format: 'geojson', features: powerPlants },
  { source: 'eia_860m_proposed_generators', format: 'geojson', features: proposedGenerators },
  {
    source: 'hifld_electric_service_territories',
    format: 'geojson',
    features: (context) => territories(context, (utility) => ({ utility_name: context.world.settlements.utilityNames[utility] })),
  },
  {
    source: 'eia_861_retail_sales',
    format: 'geojson',
    features: (context) =>
      territories(context, (utility) => ({
        utility_name: context.world.settlements.utilityNames[utility],
        industrial_usd_per_kwh: context.world.settlements.utilityPrices[utility],
      })),
  },
  {
    source: 'epa_egrid',
    format: 'geojson',
    features: ({ extent }) => [{ geometry: box(extent.x0 - 100, extent.y0 - 100, extent.x1 + 100, extent.y1 + 100), properties: { subregion: 'ERCT', co2_kg_per_mwh: 369.2 } }],
  },
  { source: 'lbnl_queued_up', format: 'geojson', features: queues },
];

