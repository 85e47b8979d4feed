// lineclip ships no types: the two functions used here, as its README documents them.
declare module 'lineclip' {
  type Point = [number, number];
  type BBox = [number, number, number, number];
  export function clipPolyline(points: Point[], bbox: BBox, result?: Point[][]): Point[][];
  export function clipPolygon(points: Point[], bbox: BBox): Point[];
}
