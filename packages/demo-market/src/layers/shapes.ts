// Geometries of the demo layers, built in the km frame and written in WGS84 degrees (rounded to
// 6 places, as the parcels are). Polygons are simple and convex (discs, boxes, bands along a
// segment) so that every reader accepts them; rings are counter-clockwise and closed.

import { latOf, lonOf, roundDegrees } from '../geo.js';
import type { DemoGeometry, Extent } from './types.js';

export function position(x: number, y: number): number[] {
  return [roundDegrees(lonOf(x)), roundDegrees(latOf(y))];
}

export function point(x: number, y: number): DemoGeometry {
  return { type: 'Point', coordinates: position(x, y) };
}

/** A polyline given as [x0, y0, x1, y1, ...] km. */
export function lineString(flat: readonly number[]): DemoGeometry {
  const coordinates: number[][] = [];
  for (let i = 0; i + 1 < flat.length; i += 2) coordinates.push(position(flat[i], flat[i + 1]));
  return { type: 'LineString', coordinates };
}

/** A polygon from a counter-clockwise ring of [x, y] km points (closed here). */
export function polygon(ring: readonly (readonly [number, number])[]): DemoGeometry {
  const coordinates = ring.map(([x, y]) => position(x, y));
  coordinates.push([...coordinates[0]]);
  return { type: 'Polygon', coordinates: [coordinates] };
}

export function box(x0: number, y0: number, x1: number, y1: number): DemoGeometry {
  return polygon([
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ]);
}

/** An ellipse of semi-axes rx, ry (km) turned by `angle` radians, as a `sides`-gon. */
export function ellipse(x: number, y: number, rx: number, ry: number, angle = 0, sides = 16): DemoGeometry {
  const cos = Math.cos(angle);
  const sin = Math.sin(angle);
  const ring: [number, number][] = [];
  for (let k = 0; k < sides; k++) {
    const t = (2 * Math.PI * k) / sides;
    const u = rx * Math.cos(t);
    const v = ry * Math.sin(t);
    ring.push([x + u * cos - v * sin, y + u * sin + v * cos]);
  }
  return polygon(ring);
}

export function disc(x: number, y: number, r: number, sides = 16): DemoGeometry {
  return ellipse(x, y, r, r, 0, sides);
}

/** The band of half-width `w` km around the segment a-b, prolonged by w at both ends (so bands of consecutive segments overlap at the joints). */
export function segmentBand(ax: number, ay: number, bx: number, by: number, w: number): DemoGeometry {
  const length = Math.hypot(bx - ax, by - ay) || 1e-9;
  const ux = ((bx - ax) / length) * w;
  const uy = ((by - ay) / length) * w;
  return polygon([
    [ax - ux + uy, ay - uy - ux],
    [bx + ux + uy, by + uy - ux],
    [bx + ux - uy, by + uy + ux],
    [ax - ux - uy, ay - uy + ux],
  ]);
}

/** A box given in degrees: for footprints far outside the market (other ISOs, other states). */
export function degreeBox(west: number, south: number, east: number, north: number): DemoGeometry {
  const ring = [
    [west, south],
    [east, south],
    [east, north],
    [west, north],
    [west, south],
  ];
  return { type: 'Polygon', coordinates: [ring] };
}

export function inside(extent: Extent, x: number, y: number, pad = 0): boolean {
  return x >= extent.x0 - pad && x <= extent.x1 + pad && y >= extent.y0 - pad && y <= extent.y1 + pad;
}

/** Whether any vertex of a polyline lies in the extent (grown by `pad` km). */
export function touches(extent: Extent, flat: readonly number[], pad = 0): boolean {
  for (let i = 0; i + 1 < flat.length; i += 2) if (inside(extent, flat[i], flat[i + 1], pad)) return true;
  return false;
}

export interface Tile {
  /** Lattice indices: a tile's place on the world lattice, the same whatever the market size. */
  i: number;
  j: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  cx: number;
  cy: number;
}

/** Square tiles of `sizeKm` on a lattice anchored at the core, covering the extent. */
export function* tiles(extent: Extent, sizeKm: number): Generator<Tile> {
  for (let j = Math.floor(extent.y0 / sizeKm); j * sizeKm < extent.y1; j++) {
    for (let i = Math.floor(extent.x0 / sizeKm); i * sizeKm < extent.x1; i++) {
      const x0 = i * sizeKm;
      const y0 = j * sizeKm;
      yield { i, j, x0, y0, x1: x0 + sizeKm, y1: y0 + sizeKm, cx: x0 + sizeKm / 2, cy: y0 + sizeKm / 2 };
    }
  }
}

export function areaKm2(extent: Extent): number {
  return (extent.x1 - extent.x0) * (extent.y1 - extent.y0);
}
