// Terrain and water layers: the elevation model of the parcels' surface, the coast, soils,
// hydrography (the world's rivers and creeks, lakes on them), watersheds, the floodplain bands
// the parcels' floodplain flags follow, the world's wetlands as polygons, surface water.

import { clamp } from '../../round.js';
import { hashInts } from '../../random.js';
import { box, disc, ellipse, inside, lineString, segmentBand, tiles, touches } from '../shapes.js';
import { tileDraw } from '../context.js';
import type { DemoLayerFeature, LayerContext, LayerRecipe } from '../types.js';
import { placeName, riverName, rootName } from './names.js';
import { RiverDistance } from './river-distance.js';
import { pointsAlong } from '../../world/paths.js';

/** The parcels' elevation fact cuts valleys of this depth (m) into the surface near rivers of each rank. */
const VALLEY_DEPTH_M = [30, 18, 8];

/** Elevation (m) at (x, y): the terrain surface with river valleys cut in, as the parcels' facts. */
export function elevationSampler(context: LayerContext): (x: number, y: number) => number {
  const rivers = new RiverDistance(context.world);
  return (x, y) => {
    const distance = rivers.at(x, y);
    return context.world.terrain.at(x, y).elevationM - VALLEY_DEPTH_M[rivers.rank] * Math.exp(-distance / 1.5);
  };
}

// The Texas Gulf coast from Sabine Pass to the Rio Grande, coarsely (degrees).
const GULF_COAST = [
  [-93.84, 29.68], [-94.75, 29.33], [-95.3, 28.93], [-96.0, 28.6], [-96.4, 28.38], [-97.05, 27.83],
  [-97.25, 27.55], [-97.38, 27.2], [-97.3, 26.6], [-97.15, 25.96],
];

const SOIL_UNITS = {
  hills: ['Brackett-Rock outcrop complex, 5 to 30 percent slopes', 'Tarpley clay, 1 to 5 percent slopes', 'Eckrant cobbly clay, 1 to 8 percent slopes'],
  prairie: ['Houston Black clay, 1 to 3 percent slopes', 'Austin silty clay, 1 to 3 percent slopes', 'Burleson clay, 0 to 1 percent slopes'],
  bottoms: ['Tinn clay, 0 to 1 percent slopes, frequently flooded', 'Lewisville silty clay, 0 to 1 percent slopes', 'Bergstrom silt loam, 0 to 1 percent slopes, occasionally flooded'],
};
const SHRINK_SWELL = ['Low', 'Moderate', 'High', 'Very High'];

function* soils(context: LayerContext): Generator<DemoLayerFeature> {
  const rivers = new RiverDistance(context.world);
  for (const t of tiles(context.extent, 2)) {
    const draw = tileDraw(context.seed, 0x5011, t.i, t.j);
    const surface = context.world.terrain.at(t.cx, t.cy);
    const hilliness = surface.hilliness;
    const bottoms = rivers.at(t.cx, t.cy) <= rivers.halfWidthKm;
    const kind = bottoms ? 'bottoms' : hilliness > 0.55 ? 'hills' : 'prairie';
    const units = SOIL_UNITS[kind];
    const swell = 2.2 * (1 - hilliness) + (draw - 0.5) * 1.2 - (bottoms ? 0.3 : 0);
    const slope = Math.hypot(surface.gradientEast, surface.gradientNorth) * 100;
    yield {
      geometry: box(t.x0, t.y0, t.x1, t.y1),
      properties: {
        map_unit_name: units[Math.floor(draw * units.length)],
        drainage_class: bottoms ? 'Somewhat poorly drained' : kind === 'hills' ? 'Well drained' : 'Moderately well drained',
        bedrock_depth_cm: kind === 'hills' ? Math.round(25 + 60 * draw) : 203,
        shrink_swell_class: SHRINK_SWELL[swell < 0.6 ? 0 : swell < 1.3 ? 1 : swell < 2 ? 2 : 3],
        farmland_class: bottoms ? 'prime_if_conditions_met' : kind === 'hills' || slope > 8 ? 'not_prime' : draw < 0.6 ? 'prime' : 'statewide_importance',
      },
    };
  }
}

/** The world's rivers and creeks that reach the extent, with their index (names and widths follow it). */
function* riversInExtent(context: LayerContext, pad = 10): Generator<{ index: number; rank: 0 | 1 | 2; flat: number[] }> {
  const lines = context.world.riverLines;
  for (let index = 0; index < lines.length; index++) {
    if (touches(context.extent, lines[index].flat, pad)) yield { index, ...lines[index] };
  }
}

function* hydrography(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('usgs_nhdplus_hr');
  let lakes = 0;
  for (const river of riversInExtent(context)) {
    const name = riverName(river.index, river.rank);
    yield { geometry: lineString(river.flat), properties: { feature_type: 'flowline', name } };
    if (river.rank === 2) continue;
    // The river's own channel as an area polygon, and reservoirs along it.
    const half = river.rank === 0 ? 0.06 : 0.035;
    for (let k = 0; k + 3 < river.flat.length; k += 2) {
      const [ax, ay, bx, by] = river.flat.slice(k, k + 4);
      if (inside(context.extent, ax, ay, 2)) yield { geometry: segmentBand(ax, ay, bx, by, half), properties: { feature_type: 'area', name } };
    }
    for (const [x, y] of pointsAlong(random, river.flat, [25, 60])) {
      const angle = random.uniform(0, Math.PI);
      lakes++;
      yield {
        geometry: ellipse(x, y, random.uniform(0.8, 2.5), random.uniform(0.25, 0.6), angle, 20),
        properties: { feature_type: 'waterbody', name: `Lake ${rootName(0x1a, river.index, lakes)}` },
      };
    }
  }
  // Stock tanks and small reservoirs off the rivers: a waterbody is never far.
  for (const t of tiles(context.extent, 8)) {
    const draw = tileDraw(context.seed, 0x7a4c, t.i, t.j);
    if (draw < 0.5) continue;
    const x = t.x0 + 8 * tileDraw(context.seed, 0x7a4d, t.i, t.j);
    const y = t.y0 + 8 * tileDraw(context.seed, 0x7a4e, t.i, t.j);
    yield { geometry: disc(x, y, 0.08 + 0.25 * draw, 12), properties: { feature_type: 'waterbody', name: `${placeName(0x7a, t.i, t.j)} Tank` } };
  }
}

function* watersheds(context: LayerContext): Generator<DemoLayerFeature> {
  for (const t of tiles(context.extent, 10)) {
    yield { geometry: box(t.x0, t.y0, t.x1, t.y1), properties: { huc12_name: `${rootName(0x12, t.i, t.j)} Creek-${placeName(0x13, t.i, t.j)}` } };
  }
}

/** The mapped floodplain: a band of the river's floodplain half-width along each segment. */
function* floodplains(context: LayerContext): Generator<DemoLayerFeature> {
  const halfWidths = context.world.hydrology.floodHalfWidthKm;
  for (const river of riversInExtent(context)) {
    const half = halfWidths[river.index];
    for (let k = 0; k + 3 < river.flat.length; k += 2) {
      const [ax, ay, bx, by] = river.flat.slice(k, k + 4);
      if (!inside(context.extent, ax, ay, 2) && !inside(context.extent, bx, by, 2)) continue;
      yield { geometry: segmentBand(ax, ay, bx, by, half), properties: { flood_zone: river.rank === 2 ? 'A' : 'AE' } };
    }
  }
}

function* wetlands(context: LayerContext): Generator<DemoLayerFeature> {
  const { xs, ys, radii, size } = context.world.hydrology.wetlands;
  const rivers = new RiverDistance(context.world);
  for (let i = 0; i < size; i++) {
    const x = xs[i];
    const y = ys[i];
    if (!inside(context.extent, x, y, 1)) continue;
    const draw = (hashInts(context.seed, 0x3e7, i) % 1000) / 1000;
    const riparian = rivers.at(x, y) <= 1.5 * rivers.halfWidthKm;
    const [wetland_type, wetland_subtype] = riparian
      ? draw < 0.6
        ? ['Freshwater Forested/Shrub Wetland', 'PFO1A']
        : ['Freshwater Emergent Wetland', 'PEM1A']
      : draw < 0.7
        ? ['Freshwater Pond', 'PUBHh']
        : ['Freshwater Emergent Wetland', 'PEM1C'];
    // Fewer vertices for the many small ponds: the largest layer stays a third smaller.
    yield { geometry: disc(x, y, radii[i], radii[i] < 0.1 ? 10 : 16), properties: { wetland_type, wetland_subtype } };
  }
}

export const TERRAIN_RECIPES: readonly LayerRecipe[] = [
  { source: 'usgs_3dep', format: 'geotiff', cellKm: 0.06, sampler: elevationSampler },
  {
    source: 'noaa_shoreline',
    format: 'geojson',
    features: () => [{ geometry: { type: 'LineString', coordinates: GULF_COAST }, properties: { name: 'Texas Gulf Coast' } }],
  },
  { source: 'usda_nrcs_ssurgo', format: 'geojson', features: soils },
  { source: 'usgs_nhdplus_hr', format: 'geojson', features: hydrography },
  { source: 'usgs_wbd', format: 'geojson', features: watersheds },
  { source: 'fema_nfhl', format: 'geojson', features: floodplains },
  // The largest vector layer: newline-delimited, so a reader never holds the document.
  { source: 'usfws_nwi', format: 'ndjson', features: wetlands },
  {
    source: 'jrc_global_surface_water',
    format: 'geotiff',
    cellKm: 0.25,
    sampler: (context) => {
      const rivers = new RiverDistance(context.world);
      return (x, y) => {
        const d = rivers.at(x, y);
        const width = [0.12, 0.07, 0.03][rivers.rank];
        return Math.round(clamp((rivers.rank === 2 ? 45 : 98) * Math.exp(-((d / width) ** 2)), 0, 100));
      };
    },
  },
];
