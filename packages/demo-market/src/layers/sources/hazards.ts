// Hazard layers: seismic design categories and ground motion, design wind speed, the National
// Risk Index by county, landslide susceptibility from the terrain, dams on the rivers, facilities,
// housing units, air quality areas, brownfields, Superfund sites, the air district and the
// Class I areas of Texas (the two national parks of the far west, where they are).

import { clamp } from '../../round.js';
import { urbanInfluence } from '../../world/settlements.js';
import { pointsAlong } from '../../world/paths.js';
import { tileDraw } from '../context.js';
import { box, degreeBox, point, tiles, touches } from '../shapes.js';
import type { DemoLayerFeature, LayerContext, LayerRecipe } from '../types.js';
import { riverName, surname } from './names.js';
import { scatter } from './scatter.js';
import { COUNTY_KM, countyAt } from './tracts.js';

function* dams(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('usace_nid');
  const lines = context.world.riverLines;
  for (let index = 0; index < lines.length; index++) {
    if (!touches(context.extent, lines[index].flat, 15)) continue;
    for (const [x, y] of pointsAlong(random, lines[index].flat, lines[index].rank === 2 ? [6, 25] : [15, 40])) {
      const draw = random.next();
      const hazard_potential = draw < 0.15 ? 'High' : draw < 0.35 ? 'Significant' : 'Low';
      yield { geometry: point(x, y), properties: { name: `${riverName(index, lines[index].rank)} Dam`, hazard_potential } };
    }
  }
}

function* housingUnits(context: LayerContext): Generator<DemoLayerFeature> {
  const towns = context.world.settlements.towns;
  // One internal point per 1 km cell with its housing units (census blocks aggregated), as the parcels' facts scale.
  for (const t of tiles(context.extent, 1)) {
    const urban = urbanInfluence(towns, t.cx, t.cy);
    const draw = tileDraw(context.seed, 0x40, t.i, t.j);
    const units = Math.round((1 + 830 * urban * Math.sqrt(urban)) * (0.6 + 0.8 * draw));
    if (units === 0) continue;
    const jx = tileDraw(context.seed, 0x41, t.i, t.j);
    const jy = tileDraw(context.seed, 0x42, t.i, t.j);
    yield { geometry: point(t.x0 + 0.2 + 0.6 * jx, t.y0 + 0.2 + 0.6 * jy), properties: { housing_units: units } };
  }
}

function* countyPolygons(context: LayerContext, properties: (i: number, j: number, draw: number) => DemoLayerFeature['properties']): Generator<DemoLayerFeature> {
  const { extent } = context;
  for (let j = Math.floor(extent.y0 / COUNTY_KM); j * COUNTY_KM < extent.y1; j++) {
    for (let i = Math.floor(extent.x0 / COUNTY_KM); i * COUNTY_KM < extent.x1; i++) {
      yield { geometry: box(i * COUNTY_KM, j * COUNTY_KM, (i + 1) * COUNTY_KM, (j + 1) * COUNTY_KM), properties: properties(i, j, tileDraw(context.seed, 0x4e1, i, j)) };
    }
  }
}

function* airQuality(context: LayerContext): Generator<DemoLayerFeature> {
  // Ozone nonattainment over the county south-west of the core, with a PM2.5 area inside it; the
  // core's county is a maintenance area of an older ozone standard.
  const [x0, y0] = [-COUNTY_KM, -COUNTY_KM];
  yield { geometry: box(x0, y0, 0, 0), properties: { area_status: 'nonattainment', pollutant: 'Ozone (2015)', classification: 'Moderate', name: `${countyAt(-1, -1).name} Area` } };
  yield { geometry: box(x0 + 22, y0 + 22, -2, -2), properties: { area_status: 'nonattainment', pollutant: 'PM2.5 (2012)', classification: 'Marginal', name: `${countyAt(-1, -1).name} Area` } };
  yield { geometry: box(0, 0, COUNTY_KM, COUNTY_KM), properties: { area_status: 'maintenance', pollutant: 'Ozone (1997)', classification: 'Marginal', name: `${countyAt(0, 0).name} Area` } };
}

const FACILITY_KINDS = ['Chemical Distribution', 'Metal Finishing', 'Asphalt Plant', 'Fuel Terminal', 'Concrete Batch Plant'];

export const HAZARD_RECIPES: readonly LayerRecipe[] = [
  {
    source: 'usgs_seismic_design_maps',
    format: 'geojson',
    features: (context) => (function* () {
      for (const t of tiles(context.extent, 4)) yield { geometry: box(t.x0, t.y0, t.x1, t.y1), properties: { design_category: tileDraw(context.seed, 0x5e, t.i, t.j) < 0.08 ? 'B' : 'A' } };
    })(),
  },
  { source: 'usgs_nshm', format: 'geotiff', cellKm: 10, sampler: () => (x, y) => Math.round((0.035 + 0.00004 * (x + y)) * 10_000) / 10_000 },
  {
    source: 'asce_hazard_tool',
    format: 'geojson',
    // Design wind speed rises towards the Gulf (south and east).
    features: (context) => (function* () {
      for (const t of tiles(context.extent, 20)) yield { geometry: box(t.x0, t.y0, t.x1, t.y1), properties: { design_wind_speed_mph: Math.round(clamp(107 + 0.04 * t.cx - 0.05 * t.cy, 100, 150)) } };
    })(),
  },
  {
    source: 'fema_nri',
    format: 'geojson',
    features: (context) =>
      countyPolygons(context, (i, j, draw) => ({
        county: countyAt(i, j).name,
        wildfire_frequency: Math.round((0.002 + 0.004 * draw) * 100_000) / 100_000,
        tornado_frequency: Math.round((0.4 + 0.6 * draw + 0.002 * i * COUNTY_KM) * 1000) / 1000,
        hail_frequency: Math.round((2.5 + 2 * draw) * 100) / 100,
        lightning_flash_days: Math.round((38 + 10 * draw) * 10) / 10,
      })),
  },
  {
    source: 'usgs_landslide_susceptibility',
    format: 'geotiff',
    cellKm: 1,
    sampler: (context) => (x, y) => {
      const s = context.world.terrain.at(x, y);
      const slopePct = Math.hypot(s.gradientEast, s.gradientNorth) * 100;
      return clamp(Math.floor(slopePct / 3 + 2 * s.hilliness), 0, 5);
    },
  },
  { source: 'usace_nid', format: 'geojson', features: dams },
  {
    source: 'epa_frs',
    format: 'geojson',
    features: function* (context) {
      const random = context.random('epa_frs');
      for (const [x, y] of scatter(context, random, { perThousandKm2: 20, min: 3, urban: 0.7 })) {
        yield { geometry: point(x, y), properties: { name: `${surname(0xf5, Math.round(x * 10), Math.round(y * 10))} ${random.pick(FACILITY_KINDS)}` } };
      }
    },
  },
  // The densest point layer: newline-delimited.
  { source: 'census_housing_units', format: 'ndjson', features: housingUnits },
  { source: 'epa_green_book', format: 'geojson', features: airQuality },
  {
    source: 'epa_brownfields',
    format: 'geojson',
    features: function* (context) {
      const random = context.random('epa_brownfields');
      for (const [x, y, n] of scatter(context, random, { perThousandKm2: 15, min: 3, urban: 0.85 })) yield { geometry: point(x, y), properties: { name: `Former ${surname(0xbf, n)} ${random.pick(['Gas Station', 'Dry Cleaner', 'Rail Yard', 'Mill'])}` } };
    },
  },
  {
    source: 'epa_superfund_npl',
    format: 'geojson',
    features: function* (context) {
      const random = context.random('epa_superfund_npl');
      for (const [x, y, n] of scatter(context, random, { perThousandKm2: 0.6, min: 2, urban: 0.5 })) yield { geometry: point(x, y), properties: { name: `${surname(0x5f, n)} ${random.pick(['Creosote', 'Smelter', 'Landfill', 'Battery Recycling'])} Site` } };
    },
  },
  {
    source: 'state_air_districts',
    format: 'geojson',
    features: ({ extent }) => [{ geometry: box(extent.x0 - 50, extent.y0 - 50, extent.x1 + 50, extent.y1 + 50), properties: { name: 'TCEQ Region 11' } }],
  },
  {
    source: 'nps_class_i_areas',
    format: 'geojson',
    features: () => [
      { geometry: degreeBox(-103.6, 28.97, -102.9, 29.6), properties: { name: 'Big Bend National Park', agency: 'NPS' } },
      { geometry: degreeBox(-104.95, 31.85, -104.75, 32.05), properties: { name: 'Guadalupe Mountains National Park', agency: 'NPS' } },
    ],
  },
];
