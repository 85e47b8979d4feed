import { EXTENT, type TileAddress } from './tile-address.js';

const DEG = Math.PI / 180;

/**
 * WGS84 degrees to one tile's coordinates: web mercator scaled so the tile spans 0..EXTENT, x east
 * and y south, as fractional numbers (rounded when a path is written).
 */
export class TileProjector {
  private readonly scale: number;
  private readonly originX: number;
  private readonly originY: number;

  constructor(tile: TileAddress, readonly extent = EXTENT) {
    this.scale = 2 ** tile.z * extent;
    this.originX = tile.x * extent;
    this.originY = tile.y * extent;
  }

  x(lon: number): number {
    return ((lon + 180) / 360) * this.scale - this.originX;
  }

  y(lat: number): number {
    const sin = Math.sin(lat * DEG);
    const clamped = sin > 0.9999 ? 0.9999 : sin < -0.9999 ? -0.9999 : sin;
    return (0.5 - (0.25 * Math.log((1 + clamped) / (1 - clamped))) / Math.PI) * this.scale - this.originY;
  }
}
