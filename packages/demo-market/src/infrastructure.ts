// The synthetic world behind a demo market as GeoJSON: the towns, rivers, wetlands and
// infrastructure the parcels' point-data facts were measured against. For maps, for loading as
// layers, and for tests that check the facts against the features they claim to measure.

import { generateDemoParcels, worldHalfSizeKm, type DemoMarketOptions } from './generate.js';
import { latOf, lonOf, roundDegrees } from './geo.js';
import type { LineFeature } from './world/networks.js';
import { worldFor } from './world/world.js';

type Geometry = { type: 'Point'; coordinates: number[] } | { type: 'LineString'; coordinates: number[][] };

export interface InfrastructureFeature {
  type: 'Feature';
  geometry: Geometry;
  properties: Record<string, unknown>;
}

export interface FeatureCollection {
  type: 'FeatureCollection';
  features: InfrastructureFeature[];
}

export interface DemoInfrastructure {
  towns: FeatureCollection;
  /** Rivers and creeks; `floodplain_half_width_m` is the half-width of the mapped floodplain band. */
  rivers: FeatureCollection;
  /** Wetlands as points with their radius. */
  wetlands: FeatureCollection;
  substations: FeatureCollection;
  transmission_lines: FeatureCollection;
  gas_pipelines: FeatureCollection;
  major_roads: FeatureCollection;
  rail_lines: FeatureCollection;
}

export type DemoLayer = keyof DemoInfrastructure;

const ALL_LAYERS: readonly DemoLayer[] = [
  'towns',
  'rivers',
  'wetlands',
  'substations',
  'transmission_lines',
  'gas_pipelines',
  'major_roads',
  'rail_lines',
];

/**
 * The world of the market the same options generate (it depends on seed and size only), as one
 * FeatureCollection per layer; `layers` picks some (the wetlands alone are a few hundred
 * thousand features).
 */
export function demoInfrastructure<L extends DemoLayer = DemoLayer>(
  options: DemoMarketOptions = {},
  layers: readonly L[] = ALL_LAYERS as readonly L[],
): Pick<DemoInfrastructure, L> {
  const market = generateDemoParcels(options);
  const world = worldFor(market.seed, worldHalfSizeKm(market.parcels));
  const { hydrology, networks, settlements } = world;
  const point = (x: number, y: number): Geometry => ({ type: 'Point', coordinates: [roundDegrees(lonOf(x)), roundDegrees(latOf(y))] });
  const line = (flat: readonly number[]): Geometry => {
    const coordinates: number[][] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) coordinates.push([roundDegrees(lonOf(flat[i])), roundDegrees(latOf(flat[i + 1]))]);
    return { type: 'LineString', coordinates };
  };
  const collection = (features: InfrastructureFeature[]): FeatureCollection => ({ type: 'FeatureCollection', features });
  const lines = (features: readonly LineFeature[], properties: (f: LineFeature) => Record<string, unknown>): FeatureCollection =>
    collection(features.map((f) => ({ type: 'Feature', geometry: line(f.flat), properties: properties(f) })));

  const build: { [K in DemoLayer]: () => FeatureCollection } = {
    towns: () => collection(
      settlements.towns.map((t) => ({
        type: 'Feature',
        geometry: point(t.x, t.y),
        properties: { name: t.name, urban_weight: t.weight, municipal_utility: t.municipalUtility >= 0 ? settlements.utilityNames[t.municipalUtility] : null },
      })),
    ),
    rivers: () => collection(
      world.riverLines.map((r, i) => ({
        type: 'Feature',
        geometry: line(r.flat),
        properties: { kind: ['main_river', 'river', 'creek'][r.rank], floodplain_half_width_m: Math.round(hydrology.floodHalfWidthKm[i] * 1000) },
      })),
    ),
    wetlands: () => collection(
      Array.from({ length: hydrology.wetlands.size }, (_, i) => ({
        type: 'Feature',
        geometry: point(hydrology.wetlands.xs[i], hydrology.wetlands.ys[i]),
        properties: { radius_m: Math.round(hydrology.wetlands.radii[i] * 1000) },
      })),
    ),
    substations: () => collection(
      networks.substationPoints.map(([x, y], i) => ({ type: 'Feature', geometry: point(x, y), properties: { max_voltage_kv: networks.substationVoltageKv[i] } })),
    ),
    transmission_lines: () => lines(networks.transmission.features, (f) => ({ voltage_kv: f.voltageKv })),
    gas_pipelines: () => lines(networks.gas.features, (f) => ({ operator: f.name })),
    major_roads: () => lines(networks.roads.features, (f) => ({ name: f.name })),
    rail_lines: () => lines(networks.rail.features, () => ({})),
  };
  return Object.fromEntries(layers.map((layer) => [layer, build[layer]()])) as Pick<DemoInfrastructure, L>;
}
