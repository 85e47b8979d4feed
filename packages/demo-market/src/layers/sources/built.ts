// Built environment layers: building footprints (one at the centre of every improved parcel, and
// barns on some farms), the world's major roads, bridges on them, wind turbines in projects on
// the western ridges, solar farms, repowering sites, and opportunity zones (a share of the tracts).

import { xOf, yOf } from '../../geo.js';
import { pointsAlong } from '../../world/paths.js';
import { tileDraw } from '../context.js';
import { box, lineString, point, polygon, touches } from '../shapes.js';
import type { DemoLayerFeature, LayerContext, LayerRecipe } from '../types.js';
import { surname } from './names.js';
import { scatter } from './scatter.js';
import { tracts } from './tracts.js';

/** Footprint (m²), floors and Overture class of the main building of a parcel, by land use. */
const BUILDINGS: Record<string, { sqm: [number, number]; floors: [number, number]; kind: string }> = {
  single_family: { sqm: [140, 320], floors: [1, 2], kind: 'house' },
  multi_family: { sqm: [1200, 4000], floors: [2, 4], kind: 'apartments' },
  retail: { sqm: [600, 5000], floors: [1, 1], kind: 'retail' },
  office: { sqm: [800, 3000], floors: [2, 6], kind: 'office' },
  warehouse: { sqm: [4000, 20000], floors: [1, 1], kind: 'warehouse' },
  light_industrial: { sqm: [1500, 8000], floors: [1, 2], kind: 'industrial' },
  heavy_industrial: { sqm: [4000, 25000], floors: [1, 2], kind: 'industrial' },
};
const BARN = { sqm: [150, 600] as [number, number], floors: [1, 1] as [number, number], kind: 'agricultural' };
const FARM_USES = new Set(['pasture', 'cropland', 'ranchland']);

/** A parcel's centre: the mean of its four corners (inside: the lots are convex quadrilaterals). */
export function parcelCentre(ring: readonly (readonly number[])[]): [number, number] {
  let lon = 0;
  let lat = 0;
  for (let k = 0; k < 4; k++) {
    lon += ring[k][0];
    lat += ring[k][1];
  }
  return [lon / 4, lat / 4];
}

function* buildings(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('overture_buildings');
  for (const parcel of context.parcels) {
    const use = String(parcel.properties.land_use);
    const spec = BUILDINGS[use] ?? (FARM_USES.has(use) && random.chance(0.3) ? BARN : undefined);
    if (!spec) continue;
    const [lon, lat] = parcelCentre(parcel.geometry.coordinates[0]);
    // Small enough to stay inside the lot: at most a fifth of its area.
    const lotSqm = Number(parcel.properties.acres) * 4046.86;
    const sqm = Math.min(random.uniform(...spec.sqm), lotSqm / 5);
    const side = Math.sqrt(sqm) / 1000;
    const x = xOf(lon);
    const y = yOf(lat);
    const floors = random.int(...spec.floors);
    yield {
      geometry: box(x - side / 2, y - side / 2, x + side / 2, y + side / 2),
      properties: { height_m: Math.round((floors * 3.3 + random.uniform(0.5, 2.5)) * 10) / 10, num_floors: floors, building_class: spec.kind },
    };
  }
}

function* roads(context: LayerContext): Generator<DemoLayerFeature> {
  for (const road of context.world.networks.roads.features) {
    if (touches(context.extent, road.flat, 15)) yield { geometry: lineString(road.flat), properties: { name: road.name } };
  }
}

function* bridges(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('fhwa_nbi');
  for (const road of context.world.networks.roads.features) {
    if (!touches(context.extent, road.flat, 15)) continue;
    for (const [x, y] of pointsAlong(random, road.flat, [3, 9])) {
      yield { geometry: point(x, y), properties: { name: `${road.name} over ${surname(0xb7, Math.round(x * 10), Math.round(y * 10))} Creek` } };
    }
  }
}

function* windTurbines(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('usgs_uswtdb');
  // Projects on the western ridges, turbines in rows 400 m apart.
  for (const [x, y, n] of scatter(context, random, { perThousandKm2: 0.6, min: 2 })) {
    if (n > 0 && context.world.terrain.at(x, y).hilliness < 0.5 && random.chance(0.8)) continue;
    const turbines = random.int(12, 60);
    const unitMw = random.pick([2, 2.3, 2.5, 2.8, 3.6]);
    const hub = random.pick([80, 87, 90, 105]);
    const angle = random.uniform(0, Math.PI);
    for (let k = 0; k < turbines; k++) {
      const row = Math.floor(k / 10);
      const along = (k % 10) * 0.4;
      yield {
        geometry: point(x + along * Math.cos(angle) - row * 0.8 * Math.sin(angle), y + along * Math.sin(angle) + row * 0.8 * Math.cos(angle)),
        properties: { hub_height_m: hub, total_height_m: Math.round(hub + random.uniform(50, 63)), project_capacity_mw: Math.round(turbines * unitMw * 10) / 10 },
      };
    }
  }
}

function* solarFarms(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('usgs_uspvdb');
  for (const [x, y] of scatter(context, random, { perThousandKm2: 1.5, min: 2 })) {
    yield { geometry: point(x, y), properties: { capacity_mw: Math.round(random.lognormal(60, 0.9) * 10) / 10 } };
  }
}

const REPOWERING_KINDS = ['Former landfill', 'Closed mine', 'Former refinery', 'Retired power plant'];

function* repoweringSites(context: LayerContext): Generator<DemoLayerFeature> {
  const random = context.random('epa_repowering');
  for (const [x, y] of scatter(context, random, { perThousandKm2: 2, min: 2, urban: 0.6 })) {
    yield { geometry: point(x, y), properties: { name: `${surname(0x4e, Math.round(x), Math.round(y))} ${random.pick(REPOWERING_KINDS)}` } };
  }
}

/** Opportunity zones: lower-income tracts, more of them on the urban fringe and east of the core (as the parcels' facts). */
function* opportunityZones(context: LayerContext): Generator<DemoLayerFeature> {
  for (const tract of tracts(context)) {
    const draw = tileDraw(context.seed, 0x7a, Math.round(tract.cx * 2), Math.round(tract.cy * 2));
    if (draw >= 0.05 + 0.18 * tract.urban + (tract.cx > 0 ? 0.06 : 0)) continue;
    yield {
      geometry: polygon([
        [tract.x0, tract.y0],
        [tract.x1, tract.y0],
        [tract.x1, tract.y1],
        [tract.x0, tract.y1],
      ]),
      properties: { tract_geoid: tract.geoid },
    };
  }
}

export const BUILT_RECIPES: readonly LayerRecipe[] = [
  { source: 'overture_buildings', format: 'ndjson', features: buildings },
  { source: 'osm_roads', format: 'geojson', features: roads },
  { source: 'fhwa_nbi', format: 'geojson', features: bridges },
  { source: 'usgs_uswtdb', format: 'csv', features: windTurbines },
  { source: 'usgs_uspvdb', format: 'geojson', features: solarFarms },
  { source: 'epa_repowering', format: 'geojson', features: repoweringSites },
  { source: 'cdfi_opportunity_zones', format: 'geojson', features: opportunityZones },
];
