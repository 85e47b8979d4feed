import type { Geometry } from '@landscreen/point-engine';

/** The WGS84 bounding box of every geometry added, for `landscreen layers` and /v1/meta/sources. */
export class BoundsAccumulator {
  private minLon = Infinity;
  private minLat = Infinity;
  private maxLon = -Infinity;
  private maxLat = -Infinity;

  /** Answers the number of positions the geometry has (chunks are cut by it). */
  add(geometry: Geometry): number {
    return this.walk(geometry.coordinates as unknown);
  }

  /** null when nothing was added (an empty layer). */
  bbox(): [number, number, number, number] | null {
    return this.minLon === Infinity ? null : [this.minLon, this.minLat, this.maxLon, this.maxLat];
  }

  private walk(coordinates: unknown): number {
    if (!Array.isArray(coordinates) || coordinates.length === 0) return 0;
    if (typeof coordinates[0] === 'number') {
      this.point(coordinates as number[]);
      return 1;
    }
    if (typeof coordinates[0][0] === 'number') {
      // A line or ring, the innermost level of every other kind: its points in one loop.
      const points = coordinates as number[][];
      for (let i = 0; i < points.length; i++) this.point(points[i]);
      return points.length;
    }
    let positions = 0;
    for (const item of coordinates) positions += this.walk(item);
    return positions;
  }

  private point(position: number[]): void {
    const lon = position[0];
    const lat = position[1];
    if (lon < this.minLon) this.minLon = lon;
    if (lon > this.maxLon) this.maxLon = lon;
    if (lat < this.minLat) this.minLat = lat;
    if (lat > this.maxLat) this.maxLat = lat;
  }
}
