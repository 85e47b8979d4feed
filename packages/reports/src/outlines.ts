// The base of the report's maps: the Census state and county outlines of us-atlas (the same
// boundaries the console draws), read from the package once per process; nothing is fetched.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { feature } from 'topojson-client';

const require = createRequire(import.meta.url);

export interface Outline {
  name: string;
  /** Two-digit state FIPS code (a county's first two digits). */
  state: string;
  /** Rings of [lon, lat] positions. */
  rings: [number, number][][];
  /** west, south, east, north */
  bbox: [number, number, number, number];
}

export interface Outlines {
  states: Outline[];
  counties: Outline[];
}

let loaded: Outlines | undefined;

function outlinesOf(topology: unknown, object: unknown): Outline[] {
  return feature(topology, object).features.flatMap((found) => {
    const geometry = found.geometry;
    if (!geometry) return [];
    const polygons = (geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.type === 'MultiPolygon' ? geometry.coordinates : []) as [number, number][][][];
    const rings = polygons.flat();
    const bbox: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const ring of rings)
      for (const [lon, lat] of ring) {
        bbox[0] = Math.min(bbox[0], lon);
        bbox[1] = Math.min(bbox[1], lat);
        bbox[2] = Math.max(bbox[2], lon);
        bbox[3] = Math.max(bbox[3], lat);
      }
    const id = String(found.id ?? '');
    return [{ name: found.properties?.name ?? '', state: id.slice(0, 2), rings, bbox }];
  });
}

/** The state and county outlines (1:10m), loaded on first use. */
export function outlines(): Outlines {
  if (!loaded) {
    const topology = JSON.parse(readFileSync(require.resolve('us-atlas/counties-10m.json'), 'utf8')) as { objects: { states: unknown; counties: unknown } };
    loaded = { states: outlinesOf(topology, topology.objects.states), counties: outlinesOf(topology, topology.objects.counties) };
  }
  return loaded;
}

/** Outlines whose box meets the given box. */
export function outlinesIn(list: Outline[], west: number, south: number, east: number, north: number): Outline[] {
  return list.filter(({ bbox }) => bbox[0] <= east && bbox[2] >= west && bbox[1] <= north && bbox[3] >= south);
}

function ringContains(ring: [number, number][], lon: number, lat: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i]!;
    const [xj, yj] = ring[j]!;
    if (yi > lat !== yj > lat && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** The outline holding a point (even-odd over its rings), if any. */
export function outlineAt(list: Outline[], lon: number, lat: number): Outline | undefined {
  return outlinesIn(list, lon, lat, lon, lat).find((outline) => outline.rings.filter((ring) => ringContains(ring, lon, lat)).length % 2 === 1);
}
