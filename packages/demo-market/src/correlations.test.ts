import { describe, expect, it } from 'vitest';
import { DEMO_CENTER } from './geo.js';
import { generateDemoParcels, type DemoFeature } from './generate.js';
import { demoInfrastructure, type FeatureCollection } from './infrastructure.js';

// The facts must hang together the way real ones do, and the point-data facts must be what they
// claim: distances to the infrastructure the market was built on. Distances here are measured
// independently, in a plain equirectangular projection around the market's centre.

const market = [...generateDemoParcels()];
const layers = demoInfrastructure({}, ['rivers', 'rail_lines', 'transmission_lines', 'substations']);

const KM_PER_DEGREE_LAT = (6_371_008.8 * Math.PI) / 180 / 1000;
const KM_PER_DEGREE_LON = KM_PER_DEGREE_LAT * Math.cos((DEMO_CENTER.lat * Math.PI) / 180);
const project = ([lon, lat]: number[]): [number, number] => [(lon - DEMO_CENTER.lon) * KM_PER_DEGREE_LON, (lat - DEMO_CENTER.lat) * KM_PER_DEGREE_LAT];

/** The parcel's representative point: the mean of its four corners, km. */
const pointOf = (f: DemoFeature): [number, number] => {
  const corners = f.geometry.coordinates[0].slice(0, 4).map(project);
  return [corners.reduce((s, c) => s + c[0], 0) / 4, corners.reduce((s, c) => s + c[1], 0) / 4];
};
const points = market.map(pointOf);

/** Segments of a line layer near the market (within `marginKm` of its extent), km. */
function segmentsOf(layer: FeatureCollection, marginKm: number): number[][] {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const [x0, x1, y0, y1] = [Math.min(...xs) - marginKm, Math.max(...xs) + marginKm, Math.min(...ys) - marginKm, Math.max(...ys) + marginKm];
  const segments: number[][] = [];
  for (const feature of layer.features) {
    const line = (feature.geometry.coordinates as number[][]).map(project);
    for (let i = 0; i + 1 < line.length; i++) {
      const [a, b] = [line[i], line[i + 1]];
      if (Math.max(a[0], b[0]) < x0 || Math.min(a[0], b[0]) > x1 || Math.max(a[1], b[1]) < y0 || Math.min(a[1], b[1]) > y1) continue;
      segments.push([...a, ...b]);
    }
  }
  return segments;
}

function distanceToSegments(segments: readonly number[][], [x, y]: [number, number]): number {
  let best = Infinity;
  for (const [ax, ay, bx, by] of segments) {
    const vx = bx - ax;
    const vy = by - ay;
    const l = vx * vx + vy * vy;
    const t = l > 0 ? Math.min(1, Math.max(0, ((x - ax) * vx + (y - ay) * vy) / l)) : 0;
    best = Math.min(best, Math.hypot(x - ax - t * vx, y - ay - t * vy));
  }
  return best;
}

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const share = <T>(xs: readonly T[], test: (x: T) => boolean): number => xs.filter(test).length / xs.length;
const props = market.map((f) => f.properties as Record<string, unknown>);
const num = (p: Record<string, unknown>, name: string): number => p[name] as number;

/** Parcel indexes ordered by distance to the core, split in quartiles. */
const byCoreDistance = points.map((p, i) => [Math.hypot(p[0], p[1]), i]).sort((a, b) => a[0] - b[0]).map(([, i]) => i);
const quartile = (q: 0 | 3): Record<string, unknown>[] => byCoreDistance.slice((q * market.length) / 4, ((q + 1) * market.length) / 4).map((i) => props[i]);

describe('point-data facts measure the infrastructure', () => {
  const sample = Array.from({ length: 400 }, (_, k) => Math.floor((k * market.length) / 400));

  it('has transmission line distances that match the lines', () => {
    const segments = segmentsOf(layers.transmission_lines, 40);
    for (const i of sample) {
      expect(num(props[i], 'nearest_transmission_line_distance_m')).toBeCloseTo(distanceToSegments(segments, points[i]) * 1000, -0.5);
    }
  });

  it('has rail distances that match the lines, and null only beyond 5 km or when unknown', () => {
    const segments = segmentsOf(layers.rail_lines, 10);
    let beyond = 0;
    for (const i of sample) {
      const measured = distanceToSegments(segments, points[i]) * 1000;
      const fact = props[i].nearest_rail_line_distance_m as number | null;
      if (fact !== null) expect(fact).toBeCloseTo(measured, -0.5);
      else if (measured > 5000) beyond++;
    }
    expect(beyond).toBeGreaterThan(0);
  });

  it('has substation distances and counts that match the substations', () => {
    const substations = layers.substations.features.map((f) => project(f.geometry.coordinates as number[]));
    for (const i of sample) {
      const [x, y] = points[i];
      const distances = substations.map(([sx, sy]) => Math.hypot(sx - x, sy - y));
      const p = props[i];
      if (p.nearest_substation_distance_m !== null) expect(num(p, 'nearest_substation_distance_m')).toBeCloseTo(Math.min(...distances) * 1000, -0.5);
      if (p.substations_within_radius_count !== null) {
        // Substations within a metre of the 5 km edge could go either way after rounding.
        const sure = distances.filter((d) => d < 4.999).length;
        const possible = distances.filter((d) => d <= 5.001).length;
        expect(num(p, 'substations_within_radius_count')).toBeGreaterThanOrEqual(sure);
        expect(num(p, 'substations_within_radius_count')).toBeLessThanOrEqual(possible);
      }
    }
  });
});

describe('facts correlate as they do in real markets', () => {
  it('makes land dearer per acre near the core', () => {
    const perAcre = (ps: Record<string, unknown>[]): number => mean(ps.map((p) => num(p, 'assessed_value_usd') / num(p, 'acres')));
    expect(perAcre(quartile(0))).toBeGreaterThan(2 * perAcre(quartile(3)));
  });

  it('puts more housing and fiber near the core, and bigger lots away from it', () => {
    const values = (ps: Record<string, unknown>[], name: string): number[] => ps.map((p) => p[name]).filter((v): v is number => typeof v === 'number');
    expect(median(values(quartile(0), 'housing_units_within_1km'))).toBeGreaterThan(5 * median(values(quartile(3), 'housing_units_within_1km')));
    expect(mean(values(quartile(0), 'fiber_provider_count'))).toBeGreaterThan(mean(values(quartile(3), 'fiber_provider_count')) + 0.5);
    expect(median(values(quartile(3), 'acres'))).toBeGreaterThan(median(values(quartile(0), 'acres')));
  });

  it('puts floodplains near the rivers, where the ground is flat and less of it developable', () => {
    const rivers = segmentsOf(layers.rivers, 10);
    const riverKm = points.map((p) => distanceToSegments(rivers, p));
    const near = props.filter((_, i) => riverKm[i] <= 1);
    const far = props.filter((_, i) => riverKm[i] > 1);
    const flooded = (p: Record<string, unknown>): boolean => p.within_floodplain_polygon === true;
    expect(share(near, flooded)).toBeGreaterThan(3 * share(far, flooded));
    expect(share(far, flooded)).toBeGreaterThan(0);
    const slopes = (ps: Record<string, unknown>[]): number[] => ps.map((p) => num(p, 'slope_degrees'));
    expect(median(slopes(props.filter((_, i) => riverKm[i] <= 0.3)))).toBeLessThan(median(slopes(props.filter((_, i) => riverKm[i] > 3))));
    const developable = (ps: Record<string, unknown>[]): number => mean(ps.map((p) => num(p, 'developable_acres') / num(p, 'acres')));
    expect(developable(props.filter(flooded))).toBeLessThan(developable(props.filter((p) => !flooded(p))) - 0.2);
  });

  it('blows harder on the ridges: wind speed rises with elevation', () => {
    const pairs = props.filter((p) => p.mean_wind_speed_100m_ms !== null).map((p) => [num(p, 'elevation'), num(p, 'mean_wind_speed_100m_ms')]);
    expect(correlation(pairs)).toBeGreaterThan(0.4);
  });

  it('zones land industrial near rail, and swelling clays east of the escarpment', () => {
    const industrial = (p: Record<string, unknown>): boolean => p.zoning === 'industrial';
    const nearRail = props.filter((p) => p.nearest_rail_line_distance_m !== null && num(p, 'nearest_rail_line_distance_m') < 1500);
    const noRail = props.filter((p) => p.nearest_rail_line_distance_m === null);
    expect(share(nearRail, industrial)).toBeGreaterThan(1.5 * share(noRail, industrial));
    const swelling = (p: Record<string, unknown>): boolean => p.soil_shrink_swell_class === 'High' || p.soil_shrink_swell_class === 'Very High';
    const east = props.filter((p, i) => points[i][0] > 10 && p.soil_shrink_swell_class !== null);
    const west = props.filter((p, i) => points[i][0] < -10 && p.soil_shrink_swell_class !== null);
    expect(share(east, swelling)).toBeGreaterThan(share(west, swelling) + 0.3);
  });

  it('ties substation distance to substation counts', () => {
    const pairs = props
      .filter((p) => p.nearest_substation_distance_m !== null && p.substations_within_radius_count !== null)
      .map((p) => [num(p, 'nearest_substation_distance_m'), num(p, 'substations_within_radius_count')]);
    expect(correlation(pairs)).toBeLessThan(-0.3);
  });
});

function correlation(pairs: readonly number[][]): number {
  const mx = mean(pairs.map((p) => p[0]));
  const my = mean(pairs.map((p) => p[1]));
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (const [x, y] of pairs) {
    sxy += (x - mx) * (y - my);
    sxx += (x - mx) ** 2;
    syy += (y - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}
