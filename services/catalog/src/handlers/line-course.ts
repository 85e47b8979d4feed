import type { PackedShape, Ruler } from '@landscreen/point-engine';

/** The most positions a line's course carries: a report's map needs its shape, not every vertex. */
const MAX_POSITIONS = 4_000;

/**
 * A line's segments that meet a square of `halfSideM` about (lon, lat), as paths of lon, lat
 * pairs. A segment is kept when its bounding box meets the square, so a long straight span whose
 * two vertices both lie far outside is kept too; the map clips what overshoots.
 */
export function lineCourseNear(shape: PackedShape, lon: number, lat: number, halfSideM: number, ruler: Ruler): { lonLat: number[] }[] {
  if (shape.kind !== 'line') return [];
  const dLon = halfSideM / ruler.kx;
  const dLat = halfSideM / ruler.ky;
  const [west, south, east, north] = [lon - dLon, lat - dLat, lon + dLon, lat + dLat];
  const meets = (x0: number, y0: number, x1: number, y1: number) => Math.max(x0, x1) >= west && Math.min(x0, x1) <= east && Math.max(y0, y1) >= south && Math.min(y0, y1) <= north;
  const { coords, paths } = shape;
  const out: { lonLat: number[] }[] = [];
  let positions = 0;
  for (let p = 0; p + 1 < paths.length; p++) {
    let current: number[] | null = null;
    for (let i = paths[p]!; i + 1 < paths[p + 1]!; i++) {
      const [x0, y0, x1, y1] = [coords[2 * i]!, coords[2 * i + 1]!, coords[2 * i + 2]!, coords[2 * i + 3]!];
      if (!meets(x0, y0, x1, y1)) {
        current = null;
        continue;
      }
      if (positions >= MAX_POSITIONS) return out;
      if (!current) {
        current = [x0, y0];
        out.push({ lonLat: current });
        positions++;
      }
      current.push(x1, y1);
      positions++;
    }
  }
  return out;
}
