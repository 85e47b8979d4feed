// Web-map tile addresses (the XYZ scheme of web mercator maps): zoom z, column x from the
// antimeridian eastwards, row y from the north. D40 allows zooms 0-22.

export const MIN_ZOOM = 0;
export const MAX_ZOOM = 22;
/** Coordinates of a tile run 0..EXTENT (the vector tile specification's usual 4096). */
export const EXTENT = 4096;
/** Coordinates past the tile's edge kept on each side, so strokes and fills meet at tile seams. */
export const BUFFER = 64;

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

/** Whether x and y name a tile at zoom z (z itself is checked by the caller's schema). */
export function isTileOf(tile: TileAddress): boolean {
  const size = 2 ** tile.z;
  return Number.isInteger(tile.x) && Number.isInteger(tile.y) && tile.x >= 0 && tile.y >= 0 && tile.x < size && tile.y < size;
}

const DEG = Math.PI / 180;

/** Longitude of the west edge of column x at zoom z. */
export function lonOfX(x: number, z: number): number {
  return (x / 2 ** z) * 360 - 180;
}

/** Latitude of the north edge of row y at zoom z. */
export function latOfY(y: number, z: number): number {
  const n = Math.PI - (2 * Math.PI * y) / 2 ** z;
  return Math.atan(Math.sinh(n)) / DEG;
}

/**
 * The tile's box in WGS84 degrees [west, south, east, north], grown by `buffer` tile units each
 * side: what a spatial index is asked for the tile's candidates.
 */
export function tileBox(tile: TileAddress, buffer = BUFFER): [number, number, number, number] {
  const margin = buffer / EXTENT;
  return [
    Math.max(-180, lonOfX(tile.x - margin, tile.z)),
    Math.max(-85.0511287798, latOfY(tile.y + 1 + margin, tile.z)),
    Math.min(180, lonOfX(tile.x + 1 + margin, tile.z)),
    Math.min(85.0511287798, latOfY(tile.y - margin, tile.z)),
  ];
}
