// A shape in a tile: projected where web mercator puts it, clipped to the tile and its buffer,
// rings wound as the vector tile specification wants, and nothing left of what lies outside.

import { describe, expect, it } from 'vitest';
import { TileProjector } from './project.js';
import { BUFFER, EXTENT, tileBox } from './tile-address.js';
import { tileGeometry, type PackedShapeLike } from './tile-geometry.js';

/** A packed polygon (as the point engine packs it) from rings of [lon, lat]. */
function polygon(...rings: number[][][]): PackedShapeLike {
  const coords = rings.flat(2);
  const paths = [0];
  for (const ring of rings) paths.push(paths.at(-1)! + ring.length);
  const lons = rings.flat().map((p) => p[0]!);
  const lats = rings.flat().map((p) => p[1]!);
  return { kind: 'polygon', coords: Float64Array.from(coords), paths: Uint32Array.from(paths), polygons: Uint32Array.from([0, rings.length]), bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)] };
}

const signedArea2 = (flat: number[]) => {
  let sum = 0;
  for (let i = 0, j = flat.length - 2; i < flat.length; j = i, i += 2) sum += flat[j]! * flat[i + 1]! - flat[i]! * flat[j + 1]!;
  return sum;
};

const tile = { z: 12, x: 941, y: 1691 };
const box = tileBox(tile);
const clip = { projector: new TileProjector(tile), box };
const [west, south, east, north] = tileBox(tile, 0);
const lonAt = (f: number) => west + (east - west) * f;
const latAt = (f: number) => north - (north - south) * f;

describe('tileGeometry', () => {
  it('puts a polygon inside the tile where the projection says, exterior clockwise on screen and its hole anticlockwise', () => {
    const outer = [[lonAt(0.2), latAt(0.2)], [lonAt(0.6), latAt(0.2)], [lonAt(0.6), latAt(0.6)], [lonAt(0.2), latAt(0.6)], [lonAt(0.2), latAt(0.2)]];
    const hole = [[lonAt(0.3), latAt(0.3)], [lonAt(0.4), latAt(0.3)], [lonAt(0.4), latAt(0.4)], [lonAt(0.3), latAt(0.4)], [lonAt(0.3), latAt(0.3)]];
    const geometry = tileGeometry(polygon(outer, hole), clip)!;
    expect(geometry.type).toBe(3);
    const [ring, inner] = geometry.paths;
    expect(ring).toHaveLength(8);
    const xs = ring!.filter((_, i) => i % 2 === 0);
    const ys = ring!.filter((_, i) => i % 2 === 1);
    expect(Math.min(...xs)).toBeCloseTo(0.2 * EXTENT, -1);
    expect(Math.max(...xs)).toBeCloseTo(0.6 * EXTENT, -1);
    // Web mercator stretches latitude: the rows are near, not at, the linear fraction.
    expect(Math.abs(Math.min(...ys) - 0.2 * EXTENT)).toBeLessThan(3);
    expect(signedArea2(ring!)).toBeGreaterThan(0);
    expect(signedArea2(inner!)).toBeLessThan(0);
  });

  it('clips a polygon crossing the tile to the tile and its buffer', () => {
    const wide = [[lonAt(-1), latAt(0.4)], [lonAt(2), latAt(0.4)], [lonAt(2), latAt(0.5)], [lonAt(-1), latAt(0.5)], [lonAt(-1), latAt(0.4)]];
    const [ring] = tileGeometry(polygon(wide), clip)!.paths;
    const xs = ring!.filter((_, i) => i % 2 === 0);
    expect(Math.min(...xs)).toBe(-BUFFER);
    expect(Math.max(...xs)).toBe(EXTENT + BUFFER);
  });

  it('leaves out what lies outside the tile, and a polygon smaller than a unit', () => {
    const away = [[lonAt(3), latAt(3)], [lonAt(3.5), latAt(3)], [lonAt(3.5), latAt(3.5)], [lonAt(3), latAt(3)]];
    expect(tileGeometry(polygon(away), clip)).toBeNull();
    const speck = [[lonAt(0.5), latAt(0.5)], [lonAt(0.50001), latAt(0.5)], [lonAt(0.50001), latAt(0.50001)], [lonAt(0.5), latAt(0.5)]];
    expect(tileGeometry(polygon(speck), clip)).toBeNull();
  });

  it('cuts a line leaving and re-entering the tile into its parts inside', () => {
    const line: PackedShapeLike = {
      kind: 'line',
      coords: Float64Array.from([lonAt(0.1), latAt(0.1), lonAt(3), latAt(0.2), lonAt(0.2), latAt(0.3)]),
      paths: Uint32Array.from([0, 3]),
      polygons: new Uint32Array(),
      bbox: [lonAt(0.1), latAt(0.3), lonAt(3), latAt(0.1)],
    };
    expect(tileGeometry(line, clip)!.paths).toHaveLength(2);
  });
});
