// Layers of the parcels group: census tracts (political facts, GEOIDs), conservation easements,
// protected areas, critical habitat, federal surface management, special use airspace, BLM solar
// planning areas (none in Texas: one far west, so the field answers its "outside" value here),
// golden eagle nest density.

import { clamp } from '../../round.js';
import { box, disc, ellipse, polygon } from '../shapes.js';
import type { DemoLayerFeature, LayerContext, LayerRecipe } from '../types.js';
import { placeName, surname } from './names.js';
import { nearestTown, scatter } from './scatter.js';
import { tracts } from './tracts.js';
import { xOf, yOf } from '../../geo.js';

function* censusTracts(context: LayerContext): Generator<DemoLayerFeature> {
  for (const tract of tracts(context)) {
    const town = nearestTown(context, tract.cx, tract.cy);
    yield {
      geometry: box(tract.x0, tract.y0, tract.x1, tract.y1),
      properties: {
        tract_geoid: tract.geoid,
        county: tract.county.name,
        region: 'TX',
        locality: town.influence > 0.12 ? town.name : `Unincorporated ${tract.county.name}`,
      },
    };
  }
}

const EASEMENT_HOLDERS = ['Hill Country Conservancy', 'Texas Agricultural Land Trust', 'Pecan Valley Land Trust', 'Natural Resources Conservation Service'];
const EASEMENT_PURPOSES = ['Agriculture', 'Habitat', 'Open space', 'Water quality', 'Ranchland protection'];

function* easements(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('nced_easements');
  for (const [x, y] of scatter(context, random, { perThousandKm2: 12, min: 3 })) {
    // 50 to 3,000 acres: ranch easements are large.
    const acres = Math.min(3000, random.lognormal(400, 0.9));
    const rx = Math.sqrt((acres * 0.004047) / Math.PI) * random.uniform(1, 1.6);
    const ry = (acres * 0.004047) / Math.PI / rx;
    yield {
      geometry: ellipse(x, y, rx, ry, random.uniform(0, Math.PI), 20),
      properties: {
        holder: random.pick(EASEMENT_HOLDERS),
        easement_type: random.chance(0.85) ? 'Conservation' : 'Agricultural',
        purpose: random.pick(EASEMENT_PURPOSES),
        year_established: random.int(1992, 2023),
      },
    };
  }
}

const PROTECTED = [
  { designation: 'State Park', manager: 'Texas Parks and Wildlife Department', gap: 2, access: 'Open Access' },
  { designation: 'Local Park', manager: 'City', gap: 4, access: 'Open Access' },
  { designation: 'Wildlife Management Area', manager: 'Texas Parks and Wildlife Department', gap: 2, access: 'Restricted Access' },
  { designation: 'Preserve', manager: 'Non-Governmental Organization', gap: 1, access: 'Restricted Access' },
];

function* protectedAreas(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('usgs_pad_us');
  for (const [x, y, n] of scatter(context, random, { perThousandKm2: 4, min: 2 })) {
    const kind = random.pick(PROTECTED);
    const r = kind.gap === 4 ? random.uniform(0.2, 0.8) : random.uniform(0.8, 3);
    yield {
      geometry: ellipse(x, y, r, r * random.uniform(0.5, 1), random.uniform(0, Math.PI), 20),
      properties: {
        name: `${placeName(0x9a, n, context.seed)} ${kind.designation}`,
        gap_status: kind.gap,
        designation: kind.designation,
        manager: kind.manager,
        public_access: kind.access,
      },
    };
  }
}

// Karst salamanders and a songbird of the Balcones escarpment: critical habitat in the hills.
const HABITAT_SPECIES = [
  ['Barton Springs salamander', 'Endangered'],
  ['Jollyville Plateau salamander', 'Threatened'],
  ['Georgetown salamander', 'Threatened'],
  ['Golden-cheeked warbler', 'Endangered'],
] as const;

function* criticalHabitat(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('usfws_critical_habitat');
  for (const [x, y, n] of scatter(context, random, { perThousandKm2: 3, min: 3 })) {
    if (n > 0 && context.world.terrain.at(x, y).hilliness < 0.4 && random.chance(0.7)) continue;
    const [species, listing_status] = random.pick(HABITAT_SPECIES);
    const r = random.uniform(0.5, 2.5);
    yield {
      geometry: ellipse(x, y, r, r * random.uniform(0.4, 1), random.uniform(0, Math.PI), 20),
      properties: { status: random.chance(0.85) ? 'Final' : 'Proposed', species, listing_status },
    };
  }
}

function* federalLand(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('blm_surface_management_agency');
  // Corps of Engineers lands around reservoirs and a wildlife refuge: little federal land, as in Texas.
  for (const [x, y, n] of scatter(context, random, { perThousandKm2: 1, min: 2 })) {
    const agency = n % 3 === 2 ? 'FWS' : 'USACE';
    yield { geometry: disc(x, y, random.uniform(1, 4), 20), properties: { agency } };
  }
}

function* airspace(context: LayerContext): Generator<DemoLayerFeature> {
  const { extent } = context;
  // A military operations area over the west of the market and a restricted area inside it.
  const west = extent.x0 + (extent.x1 - extent.x0) * 0.3;
  yield { geometry: box(extent.x0 - 20, extent.y0 + 5, west, extent.y1 - 5), properties: { airspace_type: 'MOA', name: `${surname(0xa1, context.seed)} MOA` } };
  const cx = (extent.x0 + west) / 2;
  const cy = (extent.y0 + extent.y1) / 2;
  yield { geometry: disc(cx, cy, 5, 24), properties: { airspace_type: 'Restricted', name: 'R-6302' } };
}

export const PARCEL_GROUP_RECIPES: readonly LayerRecipe[] = [
  { source: 'census_tiger', format: 'geojson', features: censusTracts },
  { source: 'nced_easements', format: 'geojson', features: easements },
  { source: 'usgs_pad_us', format: 'geojson', features: protectedAreas },
  { source: 'usfws_critical_habitat', format: 'geojson', features: criticalHabitat },
  { source: 'blm_surface_management_agency', format: 'geojson', features: federalLand },
  { source: 'faa_special_use_airspace', format: 'geojson', features: airspace },
  {
    source: 'blm_solar_planning',
    format: 'geojson',
    // The western solar planning areas; none reaches Texas (south-central New Mexico here).
    features: () => [
      {
        geometry: polygon([
          [xOf(-107.2), yOf(32.2)],
          [xOf(-106.6), yOf(32.2)],
          [xOf(-106.6), yOf(32.7)],
          [xOf(-107.2), yOf(32.7)],
        ]),
        properties: { land_status: 'variance_area', name: 'Organ Mesa Variance Area' },
      },
    ],
  },
  {
    source: 'usfws_golden_eagle_nests',
    format: 'geotiff',
    cellKm: 2,
    // Golden eagles nest on the cliffs and ridges of the west: density follows hills and crests.
    sampler: (context) => (x, y) => {
      const s = context.world.terrain.at(x, y);
      return Math.round(clamp(0.05 + 0.5 * s.hilliness + 0.25 * s.ridge * s.hilliness, 0, 1) * 1000) / 1000;
    },
  },
];

