// Linear infrastructure: transmission lines with their substations, gas pipelines, major roads
// and rail. Trunk features run through the core and the towns (where load and traffic are), the
// rest cross the countryside, so "near a substation" and "near a town" correlate as they do in
// real grids. Substations sit on the lines at their voltage, so a parcel near a 345 kV line is
// also likely near a 345 kV substation.

import { GAS_OPERATORS } from '../names.js';
import type { Random } from '../random.js';
import { PointIndex } from '../spatial/points.js';
import { SegmentIndexBuilder, type SegmentIndex } from '../spatial/segments.js';
import { bentPath, chord, pointsAlong, type PathStyle } from './paths.js';
import type { Town } from './settlements.js';

export interface LineFeature {
  flat: number[];
  /** Voltage (kV) for transmission lines, else 0. */
  voltageKv: number;
  /** Road designation or pipeline operator; '' when the kind has none. */
  name: string;
}

export interface Network {
  index: SegmentIndex;
  features: LineFeature[];
}

export interface Networks {
  transmission: Network;
  substations: PointIndex;
  substationVoltageKv: Float64Array;
  substationPoints: [number, number][];
  gas: Network;
  roads: Network;
  rail: Network;
}

const GRID_STYLE: PathStyle = { stepKm: 2, bendKm: 1.5 };
const PIPE_STYLE: PathStyle = { stepKm: 2, bendKm: 2.5 };
const ROAD_STYLE: PathStyle = { stepKm: 2, bendKm: 1.2 };
const RAIL_STYLE: PathStyle = { stepKm: 2, bendKm: 0.8 };

export function buildNetworks(random: Random, halfKm: number, towns: readonly Town[]): Networks {
  const reach = halfKm + 10;
  const core = towns[0];
  const satellites = towns.slice(1);
  const area = (2 * halfKm) ** 2;
  const randomTown = (): Town => (satellites.length > 0 ? random.pick(satellites) : core);

  /** A chord across the world through (x, y), or none if it misses. */
  const through = (x: number, y: number, angle: number, style: PathStyle): number[] | null => {
    const ends = chord(x, y, angle, reach);
    return ends ? bentPath(random, ...ends, style) : null;
  };

  // Transmission: 345 kV trunks through the core and some towns, 138 kV across the country and
  // through towns, short 69 kV lines feeding the rest.
  const transmission: LineFeature[] = [];
  const addLine = (flat: number[] | null, voltageKv: number): void => {
    if (flat) transmission.push({ flat, voltageKv, name: '' });
  };
  const trunkAngle = random.uniform(0, Math.PI);
  for (let i = 0; i < 3; i++) {
    addLine(through(random.uniform(-2, 2), random.uniform(-2, 2), trunkAngle + (i * Math.PI) / 3 + random.uniform(-0.2, 0.2), GRID_STYLE), 345);
  }
  for (let i = 0; i < Math.round(halfKm / 40); i++) {
    const town = randomTown();
    addLine(through(town.x, town.y, random.uniform(0, Math.PI), GRID_STYLE), 345);
  }
  for (let i = 0; i < Math.round((2 * halfKm) / 10); i++) {
    addLine(through(random.uniform(-halfKm, halfKm), random.uniform(-halfKm, halfKm), random.uniform(0, Math.PI), GRID_STYLE), 138);
  }
  for (const town of satellites) {
    if (random.chance(0.35)) addLine(through(town.x, town.y, random.uniform(0, Math.PI), GRID_STYLE), 138);
  }
  for (let i = 0; i < Math.round(area / 400); i++) {
    const x = random.uniform(-reach, reach);
    const y = random.uniform(-reach, reach);
    const angle = random.uniform(0, 2 * Math.PI);
    const length = random.uniform(10, 30);
    addLine(bentPath(random, x, y, x + length * Math.cos(angle), y + length * Math.sin(angle), GRID_STYLE), 69);
  }

  // Substations on the lines, closer together at lower voltage, plus distribution substations in
  // the core and the towns, where the load is.
  const substationPoints: [number, number][] = [];
  const substationVoltage: number[] = [];
  const spacing: Record<number, [number, number]> = { 345: [15, 35], 138: [8, 18], 69: [6, 14] };
  for (const line of transmission) {
    for (const point of pointsAlong(random, line.flat, spacing[line.voltageKv])) {
      substationPoints.push(point);
      substationVoltage.push(line.voltageKv);
    }
  }
  for (const town of towns) {
    const count = town === core ? 8 : 1 + random.poisson(2 * town.weight);
    const spread = town === core ? 9 : town.scaleKm;
    for (let i = 0; i < count; i++) {
      substationPoints.push([town.x + random.normal(0, spread / 2), town.y + random.normal(0, spread / 2)]);
      substationVoltage.push(town === core && random.chance(0.3) ? 345 : random.chance(0.6) ? 138 : 69);
    }
  }

  // Gas: long transmission pipelines crossing the region.
  const gas: LineFeature[] = [];
  for (let i = 0; i < 2 + Math.round((2 * halfKm) / 9); i++) {
    const flat =
      i < 2
        ? through(random.uniform(-10, 10), random.uniform(-10, 10), random.uniform(0, Math.PI), PIPE_STYLE)
        : through(random.uniform(-halfKm, halfKm), random.uniform(-halfKm, halfKm), random.uniform(0, Math.PI), PIPE_STYLE);
    if (flat) gas.push({ flat, voltageKv: 0, name: random.pick(GAS_OPERATORS) });
  }

  // Major roads: three highways and a ring around the core, regional highways, and two state or
  // farm-to-market roads through every town.
  const roads: LineFeature[] = [];
  const addRoad = (flat: number[] | null, name: string): void => {
    if (flat) roads.push({ flat, voltageKv: 0, name });
  };
  const coreHighways = ['I-35', 'US 290', 'US 183'];
  const highwayAngle = random.uniform(0, Math.PI);
  coreHighways.forEach((name, i) => {
    addRoad(through(random.uniform(-1, 1), random.uniform(-1, 1), highwayAngle + (i * Math.PI) / 3 + random.uniform(-0.25, 0.25), ROAD_STYLE), name);
  });
  addRoad(ring(random, random.uniform(11, 15)), 'SH 130');
  for (let i = 0; i < Math.round((2 * halfKm) / 12); i++) {
    const name = `${random.chance(0.5) ? 'US' : 'SH'} ${random.int(21, 399)}`;
    addRoad(through(random.uniform(-halfKm, halfKm), random.uniform(-halfKm, halfKm), random.uniform(0, Math.PI), ROAD_STYLE), name);
  }
  for (const town of satellites) {
    for (let i = 0; i < 2; i++) {
      const name = random.chance(0.6) ? `FM ${random.int(150, 3500)}` : `SH ${random.int(21, 399)}`;
      const angle = random.uniform(0, Math.PI);
      const half = random.uniform(10, 25);
      const dx = half * Math.cos(angle);
      const dy = half * Math.sin(angle);
      addRoad(bentPath(random, town.x - dx, town.y - dy, town.x + dx, town.y + dy, ROAD_STYLE), name);
    }
  }

  // Rail: two lines through the core, and lines through some towns.
  const rail: LineFeature[] = [];
  const railAngle = random.uniform(0, Math.PI);
  for (let i = 0; i < 2; i++) {
    const flat = through(random.uniform(-1.5, 1.5), random.uniform(-1.5, 1.5), railAngle + (i * Math.PI) / 2 + random.uniform(-0.3, 0.3), RAIL_STYLE);
    if (flat) rail.push({ flat, voltageKv: 0, name: '' });
  }
  for (let i = 0; i < Math.round((2 * halfKm) / 35); i++) {
    const town = randomTown();
    const flat = through(town.x, town.y, random.uniform(0, Math.PI), RAIL_STYLE);
    if (flat) rail.push({ flat, voltageKv: 0, name: '' });
  }

  return {
    transmission: network(transmission, 4),
    substations: new PointIndex({ xs: substationPoints.map((p) => p[0]), ys: substationPoints.map((p) => p[1]) }, 6),
    substationVoltageKv: Float64Array.from(substationVoltage),
    substationPoints,
    gas: network(gas, 5),
    roads: network(roads, 4),
    rail: network(rail, 5),
  };
}

function network(features: LineFeature[], cellKm: number): Network {
  const builder = new SegmentIndexBuilder();
  for (const feature of features) builder.addPolyline(feature.flat);
  return { index: builder.build(cellKm), features };
}

/** A closed, slightly irregular loop around the core. */
function ring(random: Random, radiusKm: number): number[] {
  const flat: number[] = [];
  const wobble = random.uniform(0, 2 * Math.PI);
  const steps = 72;
  for (let i = 0; i <= steps; i++) {
    const angle = (2 * Math.PI * i) / steps;
    const r = radiusKm * (1 + 0.12 * Math.sin(2 * angle + wobble));
    flat.push(r * Math.cos(angle), r * Math.sin(angle));
  }
  return flat;
}
