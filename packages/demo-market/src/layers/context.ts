// What every recipe draws on: the market's world (towns, rivers, networks, terrain), its extent
// and per-layer random streams. The extent is the parcels' bounding box plus a margin, so that
// radius searches and nearest features near the market's edge see what lies just beyond it.

import { generateDemoParcels, worldHalfSizeKm, type DemoMarketOptions } from '../generate.js';
import { xOf, yOf } from '../geo.js';
import { hash4, hashInts, Random } from '../random.js';
import { worldFor } from '../world/world.js';
import type { Extent, LayerContext } from './types.js';

/** Beyond the parcels, km: more than the largest search radius of the catalog (10 km). */
export const MARGIN_KM = 12;

export function layerContext(options: DemoMarketOptions): LayerContext {
  const parcels = generateDemoParcels(options);
  const world = worldFor(parcels.seed, worldHalfSizeKm(parcels.parcels));
  const extent = parcelsExtent(parcels);
  const seed = parcels.seed;
  return {
    world,
    seed,
    extent: { x0: extent.x0 - MARGIN_KM, y0: extent.y0 - MARGIN_KM, x1: extent.x1 + MARGIN_KM, y1: extent.y1 + MARGIN_KM },
    parcels,
    random: (stream) => new Random(hashInts(seed, 0x1a7e, hashString(stream))),
  };
}

function parcelsExtent(parcels: Iterable<{ geometry: { coordinates: number[][][] } }>): Extent {
  let [minLon, minLat, maxLon, maxLat] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const parcel of parcels) {
    for (const [lon, lat] of parcel.geometry.coordinates[0]) {
      if (lon < minLon) minLon = lon;
      if (lon > maxLon) maxLon = lon;
      if (lat < minLat) minLat = lat;
      if (lat > maxLat) maxLat = lat;
    }
  }
  // An empty market still gets layers: a small square around the core.
  if (minLon === Infinity) return { x0: -1, y0: -1, x1: 1, y1: 1 };
  return { x0: xOf(minLon), y0: yOf(minLat), x1: xOf(maxLon), y1: yOf(maxLat) };
}

/** A uniform draw in [0, 1) fixed by (seed, salt, i, j): per-tile values that do not depend on the extent. */
export function tileDraw(seed: number, salt: number, i: number, j: number): number {
  return hash4(hashInts(seed, salt), 0x711e, i, j) / 4_294_967_296;
}

function hashString(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}
