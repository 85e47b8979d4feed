// Polygons cut to a box (Sutherland–Hodgman, one ring at a time), before parcel overlays union
// them: the layers' polygons that meet a parcel (a river's floodplain band, a county, a large
// wetland) have hundreds of vertices outside the parcel, and polygon-clipping's sweep cost grows
// with every vertex it is given (measured: overlays were a third of prepare's engine time). Cut to
// a box holding the parcel, they cover exactly the same part of it.

type Ring = number[][];
type Polygon = Ring[];

/** A polygon's part inside the box (null: none); holes cut the same way stay holes. */
export function clipPolygonToBox(polygon: readonly (readonly (readonly number[])[])[], box: readonly [number, number, number, number]): Polygon | null {
  const rings: Polygon = [];
  for (let r = 0; r < polygon.length; r++) {
    const clipped = clipRing(polygon[r], box);
    if (clipped === null) {
      if (r === 0) return null;
      continue;
    }
    rings.push(clipped);
  }
  return rings;
}

/** Whether a cut polygon is the whole box (one ring, no holes, the box's area). */
export function coversBox(polygon: Polygon, box: readonly [number, number, number, number]): boolean {
  if (polygon.length !== 1) return false;
  const area = Math.abs(ringArea(polygon[0]));
  const boxArea = (box[2] - box[0]) * (box[3] - box[1]);
  return boxArea > 0 && Math.abs(area - boxArea) <= boxArea * 1e-12;
}

function ringArea(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return sum / 2;
}

function clipRing(ring: readonly (readonly number[])[], [minX, minY, maxX, maxY]: readonly [number, number, number, number]): Ring | null {
  // GeoJSON rings repeat their first position at the end: work on the open ring.
  let points: number[][] = [];
  const last = ring.length - 1;
  const closed = last > 0 && ring[0][0] === ring[last][0] && ring[0][1] === ring[last][1];
  for (let i = 0; i < (closed ? last : ring.length); i++) points.push([ring[i][0], ring[i][1]]);
  points = clipEdge(points, (p) => p[0] >= minX, (a, b) => at(a, b, (minX - a[0]) / (b[0] - a[0])));
  points = clipEdge(points, (p) => p[0] <= maxX, (a, b) => at(a, b, (maxX - a[0]) / (b[0] - a[0])));
  points = clipEdge(points, (p) => p[1] >= minY, (a, b) => at(a, b, (minY - a[1]) / (b[1] - a[1])));
  points = clipEdge(points, (p) => p[1] <= maxY, (a, b) => at(a, b, (maxY - a[1]) / (b[1] - a[1])));
  if (points.length < 3) return null;
  points.push([points[0][0], points[0][1]]);
  return ringArea(points) === 0 ? null : points;
}

function at(a: number[], b: number[], t: number): number[] {
  return [a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t];
}

function clipEdge(points: number[][], inside: (p: number[]) => boolean, cross: (a: number[], b: number[]) => number[]): number[][] {
  if (points.length === 0) return points;
  const out: number[][] = [];
  let previous = points[points.length - 1];
  let previousInside = inside(previous);
  for (const point of points) {
    const pointInside = inside(point);
    if (pointInside) {
      if (!previousInside) out.push(cross(previous, point));
      out.push(point);
    } else if (previousInside) out.push(cross(previous, point));
    previous = point;
    previousInside = pointInside;
  }
  return out;
}
