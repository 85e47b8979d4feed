// Fuel, water, telecom and transport layers: the world's gas pipelines (the two through the core
// interstate) and rail (the two through the core long-haul), petroleum pipelines, compressor
// stations, storage, the Gulf coast's LNG terminals, ports and submarine cables where they really
// are, shale plays and basins, gas prices, water systems and use, wells, broadband, urban areas,
// airports and antenna structures.

import { CORE_NAME } from '../../names.js';
import { urbanInfluence } from '../../world/settlements.js';
import { bentPath, chord, pointsAlong } from '../../world/paths.js';
import { tileDraw } from '../context.js';
import { box, degreeBox, disc, inside, lineString, point, tiles, touches } from '../shapes.js';
import type { DemoLayerFeature, LayerContext, LayerRecipe } from '../types.js';
import { xOf, yOf } from '../../geo.js';
import { placeName, pickBy, rootName } from './names.js';
import { scatter } from './scatter.js';

function* gasPipelines(context: LayerContext): Generator<DemoLayerFeature> {
  const lines = context.world.networks.gas.features;
  for (let index = 0; index < lines.length; index++) {
    if (!touches(context.extent, lines[index].flat, 15)) continue;
    const type = index < 2 ? 'interstate' : pickBy(['interstate', 'intrastate', 'intrastate', 'gathering'], 0x6a5, index);
    yield { geometry: lineString(lines[index].flat), properties: { operator: lines[index].name, pipeline_type: type } };
  }
}

function* compressorStations(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('eia_gas_compressor_stations');
  for (const line of context.world.networks.gas.features) {
    if (!touches(context.extent, line.flat, 15)) continue;
    for (const [x, y] of pointsAlong(random, line.flat, [40, 90])) yield { geometry: point(x, y), properties: { name: `${line.name} Station ${random.int(100, 899)}` } };
  }
}

const PETROLEUM = [
  ['Caprock Crude Pipeline', 'Crude Oil'],
  ['Gulf Plains Products Pipeline', 'Refined Products'],
  ['Trinity NGL Partners', 'NGL'],
] as const;

function* petroleumPipelines(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('eia_petroleum_pipelines');
  const { extent } = context;
  const half = Math.max(extent.x1 - extent.x0, extent.y1 - extent.y0) / 2 + 20;
  const cx = (extent.x0 + extent.x1) / 2;
  const cy = (extent.y0 + extent.y1) / 2;
  const count = 3 + Math.round(half / 40);
  for (let n = 0; n < count; n++) {
    const ends = chord(random.uniform(-half, half) * 0.8, random.uniform(-half, half) * 0.8, random.uniform(0, Math.PI), half);
    if (!ends) continue;
    const flat = bentPath(random, ends[0] + cx, ends[1] + cy, ends[2] + cx, ends[3] + cy, { stepKm: 2, bendKm: 2 });
    const [operator, product] = PETROLEUM[n % PETROLEUM.length];
    yield { geometry: lineString(flat), properties: { operator, product } };
  }
}

/** Points given in degrees, for features of the Gulf coast far from the market. */
function* coastal(names: readonly [string, number, number][], property = 'name'): Generator<DemoLayerFeature> {
  for (const [name, lon, lat] of names) yield { geometry: point(xOf(lon), yOf(lat)), properties: { [property]: name } };
}

function* rail(context: LayerContext): Generator<DemoLayerFeature> {
  const lines = context.world.networks.rail.features;
  for (let index = 0; index < lines.length; index++) {
    if (touches(context.extent, lines[index].flat, 15)) yield { geometry: lineString(lines[index].flat), properties: { long_haul: index < 2 } };
  }
}

function* airports(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('bts_ntad_airports');
  const angle = random.uniform(0, 2 * Math.PI);
  yield { geometry: point(10 * Math.cos(angle), 10 * Math.sin(angle)), properties: { name: `${CORE_NAME} International Airport` } };
  for (const town of context.world.settlements.towns.slice(1)) {
    if (town.weight < 0.3 || !inside(context.extent, town.x, town.y, 30)) continue;
    yield { geometry: point(town.x + random.uniform(-3, 3), town.y + random.uniform(-3, 3)), properties: { name: `${town.name} Municipal Airport` } };
  }
}

const TOWER_TYPES = ['Tower', 'Monopole', 'Guyed Tower', 'Lattice Tower', 'Building'];
const TOWER_OWNERS = ['Lone Star Towers', 'Prairie Wireless Infrastructure', 'Caprock Communications', 'Hill Country Broadcasting'];

function* antennaStructures(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('fcc_asr');
  for (const [x, y] of scatter(context, random, { perThousandKm2: 60, min: 3, urban: 0.6 })) {
    const type = random.pick(TOWER_TYPES);
    yield { geometry: point(x, y), properties: { height_m: Math.round((type === 'Guyed Tower' ? random.uniform(120, 450) : random.uniform(25, 110)) * 10) / 10, structure_type: type, owner: random.pick(TOWER_OWNERS) } };
  }
}

function* waterSystems(context: LayerContext): Generator<DemoLayerFeature> {
  for (const town of context.world.settlements.towns) {
    if (!inside(context.extent, town.x, town.y, 30)) continue;
    yield { geometry: disc(town.x, town.y, town.scaleKm, 24), properties: { name: `City of ${town.name} Water`, population_served: Math.round(town.weight * (town.x === 0 && town.y === 0 ? 1_000_000 : 60_000)) } };
  }
  const random = context.random('epa_sdwis');
  for (const [x, y, n] of scatter(context, random, { perThousandKm2: 2, min: 2 })) {
    yield { geometry: disc(x, y, random.uniform(4, 10), 20), properties: { name: `${placeName(0x5d, n, context.seed)} Water Supply Corporation`, population_served: random.int(800, 25_000) } };
  }
}

function* waterUse(context: LayerContext): Generator<DemoLayerFeature> {
  for (const t of tiles(context.extent, 10)) {
    const draw = tileDraw(context.seed, 0x3a7, t.i, t.j);
    yield {
      geometry: box(t.x0, t.y0, t.x1, t.y1),
      properties: { supply_use_index: Math.round((0.3 + 0.9 * draw + 0.003 * t.cx) * 100) / 100, thermoelectric_consumptive_use_m3_per_day: draw > 0.85 ? Math.round(draw * 40_000) : 0 },
    };
  }
}

function* wells(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('usgs_nwis_groundwater');
  for (const [x, y] of scatter(context, random, { perThousandKm2: 25, min: 3 })) {
    // Deeper water under the hills of the Edwards Plateau than on the prairie.
    const hills = context.world.terrain.at(x, y).hilliness;
    yield { geometry: point(x, y), properties: { depth_to_water_m: Math.round(random.lognormal(12 + 50 * hills, 0.5) * 10) / 10 } };
  }
}

function* broadband(context: LayerContext): Generator<DemoLayerFeature> {
  const towns = context.world.settlements.towns;
  for (const t of tiles(context.extent, 2)) {
    const urban = urbanInfluence(towns, t.cx, t.cy);
    const draw = tileDraw(context.seed, 0xbb, t.i, t.j);
    const providers = Math.min(6, Math.floor(draw * (0.4 + 5 * Math.sqrt(urban))));
    yield { geometry: box(t.x0, t.y0, t.x1, t.y1), properties: { fiber_provider_count: providers, mobile_5g_class: urban > 0.3 ? '35/3 Mbps' : urban > 0.08 || draw > 0.5 ? '7/1 Mbps' : 'none' } };
  }
}

function* urbanAreas(context: LayerContext): Generator<DemoLayerFeature> {
  for (const town of context.world.settlements.towns) {
    if (town.weight < 0.2 || !inside(context.extent, town.x, town.y, 40)) continue;
    yield { geometry: disc(town.x, town.y, town.scaleKm * 0.9, 24), properties: { name: `${town.name}, TX Urbanized Area` } };
  }
}

export const FUEL_WATER_TRANSPORT_RECIPES: readonly LayerRecipe[] = [
  { source: 'eia_gas_pipelines', format: 'geojson', features: gasPipelines },
  { source: 'eia_petroleum_pipelines', format: 'geojson', features: petroleumPipelines },
  { source: 'eia_gas_compressor_stations', format: 'geojson', features: compressorStations },
  {
    source: 'eia_gas_storage',
    format: 'geojson',
    features: function* (context) {
      const random = context.random('eia_gas_storage');
      for (const [x, y, n] of scatter(context, random, { perThousandKm2: 0.1, min: 1 })) yield { geometry: point(x, y), properties: { name: `${rootName(0x57, n)} Gas Storage` } };
    },
  },
  {
    source: 'eia_lng_terminals',
    format: 'geojson',
    features: () => coastal([['Brazos Mouth LNG', -95.31, 28.94], ['Nueces Bay LNG', -97.29, 27.88], ['Sabine Pass Gulf LNG', -93.87, 29.74]]),
  },
  {
    source: 'eia_shale_plays',
    format: 'geojson',
    features: () => [
      // A chalk play along the escarpment trend, and a shale play south-east of it.
      { geometry: degreeBox(-97.9, 29.9, -97.3, 30.9), properties: { name: 'Austin Chalk' } },
      { geometry: degreeBox(-99.5, 28.2, -97.4, 29.4), properties: { name: 'Eagle Ford' } },
    ],
  },
  {
    source: 'eia_sedimentary_basins',
    format: 'geojson',
    features: ({ extent }) => [
      { geometry: box(extent.x0 - 50, extent.y0 - 50, 0, extent.y1 + 50), properties: { name: 'Bend Arch-Fort Worth Basin' } },
      { geometry: box(0, extent.y0 - 50, extent.x1 + 50, extent.y1 + 50), properties: { name: 'Western Gulf Basin' } },
    ],
  },
  {
    source: 'eia_natural_gas_prices',
    format: 'geojson',
    features: ({ extent }) => [{ geometry: box(extent.x0 - 100, extent.y0 - 100, extent.x1 + 100, extent.y1 + 100), properties: { state: 'TX', citygate_usd_per_mcf: 4.12, industrial_usd_per_mcf: 3.36 } }],
  },
  { source: 'epa_sdwis', format: 'geojson', features: waterSystems },
  { source: 'usgs_water_use', format: 'geojson', features: waterUse },
  // Points as CSV with lat/lon columns, as NWIS site lists come.
  { source: 'usgs_nwis_groundwater', format: 'csv', features: wells },
  { source: 'fcc_broadband_map', format: 'geojson', features: broadband },
  { source: 'census_urban_areas', format: 'geojson', features: urbanAreas },
  { source: 'bts_ntad_rail', format: 'geojson', features: rail },
  { source: 'bts_ntad_airports', format: 'geojson', features: airports },
  { source: 'bts_ntad_ports', format: 'geojson', features: () => coastal([['Port of Buffalo Bayou', -95.02, 29.73], ['Port of Nueces Bay', -97.4, 27.81], ['Port of Brazos Mouth', -95.32, 28.94]]) },
  { source: 'fcc_asr', format: 'geojson', features: antennaStructures },
  {
    source: 'noaa_submarine_cables',
    format: 'geojson',
    features: () => [
      { geometry: { type: 'LineString', coordinates: [[-97.2, 27.6], [-95.5, 26.4], [-92.5, 25.2]] }, properties: { name: 'Gulf Coast Express Cable' } },
      { geometry: { type: 'LineString', coordinates: [[-95.3, 28.9], [-93.8, 27.4], [-89.9, 26.0]] }, properties: { name: 'Brazos Gulf Link' } },
    ],
  },
];
