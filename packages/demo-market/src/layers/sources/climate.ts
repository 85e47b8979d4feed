// Climate layers on cells of their products' resolutions, from the gradients the parcels' facts
// follow: sunnier and windier to the west, windier on the crests, drier to the west with a
// north-south swing of the drought pattern.

import { clamp } from '../../round.js';
import { CORE_NAME } from '../../names.js';
import { tileDraw } from '../context.js';
import { box, inside, point, tiles } from '../shapes.js';
import type { DemoLayerFeature, LayerContext, LayerRecipe } from '../types.js';
import { DEMO_CENTER } from '../../geo.js';

const round = (value: number, places: number): number => Math.round(value * 10 ** places) / 10 ** places;

function* cells(context: LayerContext, sizeKm: number, properties: (x: number, y: number, draw: number) => DemoLayerFeature['properties'] | null): Generator<DemoLayerFeature> {
  for (const t of tiles(context.extent, sizeKm)) {
    const values = properties(t.cx, t.cy, tileDraw(context.seed, Math.round(sizeKm * 1000), t.i, t.j));
    if (values) yield { geometry: box(t.x0, t.y0, t.x1, t.y1), properties: values };
  }
}

const ghiAt = (x: number, y: number): number => 5.08 - 0.0009 * x - 0.0006 * y;

function windAt(context: LayerContext, x: number, y: number): number {
  const s = context.world.terrain.at(x, y);
  return clamp(6.9 - 0.004 * x + 1.1 * s.ridge * s.hilliness, 4.5, 10.5);
}

const DROUGHT = ['D0', 'D1', 'D2', 'D3', 'D4'];

export const CLIMATE_RECIPES: readonly LayerRecipe[] = [
  {
    source: 'nrel_nsrdb',
    format: 'geojson',
    features: (context) =>
      cells(context, 4, (x, y, draw) => ({ ghi_kwh_m2_day: round(ghiAt(x, y), 2), dni_kwh_m2_day: round(ghiAt(x, y) * 1.13, 2), albedo: round(0.16 + 0.05 * draw, 3) })),
  },
  {
    source: 'nrel_pvwatts',
    format: 'geojson',
    features: (context) =>
      cells(context, 4, (x, y) => {
        const yieldKwh = Math.round((ghiAt(x, y) * 365 * 0.86 * 100) / 100);
        return { capacity_factor_pct: round((yieldKwh / 8760) * 100, 2), specific_yield_kwh_per_kw: yieldKwh, optimal_tilt_degrees: round(DEMO_CENTER.lat - 3 + y / 111, 1) };
      }),
  },
  {
    source: 'nrel_wind_toolkit',
    format: 'geojson',
    features: (context) =>
      cells(context, 2, (x, y, draw) => {
        const v = windAt(context, x, y);
        return {
          wind_speed_100m_ms: round(v, 2),
          wind_speed_120m_ms: round(v * 1.035, 2),
          wind_speed_160m_ms: round(v * 1.09, 2),
          // 1/2 rho v^3 with the Weibull energy pattern factor of k about 2.2.
          power_density_100m_wm2: Math.round(0.5 * 1.16 * v ** 3 * 1.75),
          prevailing_direction_100m: draw < 0.7 ? 'S' : 'SE',
          weibull_k_100m: round(2.1 + 0.5 * draw, 2),
        };
      }),
  },
  {
    source: 'nrel_rev_supply_curves',
    format: 'geojson',
    // reV's 11.52 km supply-curve cells; the interconnection distance is to the nearest substation.
    features: (context) =>
      cells(context, 11.52, (x, y) => ({
        wind_capacity_factor_pct: round(clamp(22 + 3.2 * (windAt(context, x, y) - 6), 15, 48), 1),
        interconnect_distance_m: Math.round(context.world.networks.substations.nearest(x, y) * 1000),
      })),
  },
  {
    source: 'ashrae_design_conditions',
    format: 'geojson',
    features: function* (context) {
      yield { geometry: point(9, -6), properties: { station: `${CORE_NAME} International`, wet_bulb_0_4pct_degc: 25.9 } };
      for (const town of context.world.settlements.towns.slice(1)) {
        if (town.weight < 0.3 || !inside(context.extent, town.x, town.y, 40)) continue;
        yield { geometry: point(town.x, town.y), properties: { station: `${town.name} Municipal`, wet_bulb_0_4pct_degc: round(25.9 + 0.004 * town.x - 0.003 * town.y, 1) } };
      }
    },
  },
  {
    source: 'noaa_climate_normals',
    format: 'geojson',
    features: (context) =>
      cells(context, 5, (x, y) => {
        const elevation = context.world.terrain.at(x, y).elevationM;
        return { dry_bulb_degc: round(20.6 - 0.006 * y - 0.0065 * (elevation - 150), 1), relative_humidity_pct: round(67 + 0.03 * x, 1) };
      }),
  },
  {
    source: 'noaa_nclimgrid_daily',
    format: 'geotiff',
    cellKm: 4,
    sampler: () => (x, y) => round(clamp(108 - 0.08 * y - 0.04 * x, 60, 150), 1),
  },
  { source: 'nasa_modis_snow_cover', format: 'geotiff', cellKm: 5, sampler: () => (x, y) => round(clamp(0.4 + 0.01 * y - 0.002 * x, 0, 10), 2) },
  {
    source: 'usdm_drought_monitor',
    format: 'geojson',
    // Drought polygons only where there is drought (D0 or worse): elsewhere no polygon.
    features: (context) =>
      cells(context, 8, (x, y) => {
        const drought = 1.2 - 0.015 * x + 0.8 * Math.sin(y / 12 + context.world.droughtPhase);
        return drought < -0.5 ? null : { category: DROUGHT[clamp(Math.round(drought), 0, 4)] };
      }),
  },
];
