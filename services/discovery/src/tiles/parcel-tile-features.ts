import type { MessageInitShape } from '@bufbuild/protobuf';
import type { discoveryv1 } from '@landscreen/proto';
import { encodeTile, TileProjector, tileBox, tileGeometry, type TileAddress, type TileFeature, type TileGeometry } from '@landscreen/vector-tiles';
import type { ParcelIndex } from '../locate/parcel-index.js';
import { VERDICTS, type VerdictMap } from './verdict-map.js';

type FeatureInit = MessageInitShape<typeof discoveryv1.ParcelTileFeatureSchema>;

/**
 * At most this many parcels in one tile: past it (a market seen whole at a low zoom), the
 * best-scored are drawn. A z10 tile of the densest part of the 1,000,000-parcel demo market holds
 * about 35,000; the bound keeps a z5 tile of a whole market from taking seconds and megabytes.
 */
export const MAX_TILE_FEATURES = 50_000;

/** The layer name parcel tiles carry their features in (D40). */
export const PARCEL_LAYER = 'parcels';

interface DrawnParcel {
  id: number;
  geometry: TileGeometry;
}

/** The eligible parcels meeting the tile, in the tile's coordinates (the selection both answers share). */
function drawnParcels(parcels: ParcelIndex, view: VerdictMap, tile: TileAddress): DrawnParcel[] {
  const box = tileBox(tile);
  let ids = parcels.searchBox(box[0], box[1], box[2], box[3]).filter((id) => view.verdict[id] !== 0);
  if (ids.length > MAX_TILE_FEATURES) ids = ids.sort((a, b) => view.score[b]! - view.score[a]! || a - b).slice(0, MAX_TILE_FEATURES);
  const clip = { projector: new TileProjector(tile), box };
  const drawn: DrawnParcel[] = [];
  for (const id of ids) {
    const geometry = tileGeometry(parcels.shape(id)!, clip);
    if (geometry !== null) drawn.push({ id, geometry });
  }
  return drawn;
}

/** The eligible parcels meeting the tile as typed messages, with verdict and score. */
export function parcelTileFeatures(parcels: ParcelIndex, view: VerdictMap, tile: TileAddress): FeatureInit[] {
  return drawnParcels(parcels, view, tile).map(({ id, geometry }) => ({
    parcelKey: parcels.keys[id]!,
    verdict: VERDICTS[view.verdict[id]!],
    score: view.score[id]!,
    geometry: { type: geometry.type, paths: geometry.paths.map((xy) => ({ xy })) },
  }));
}

/**
 * The same parcels as an encoded vector tile: the gateway serves these bytes as they are. Typed
 * messages of a z10 tile's thousands of parcels took several times the tile's encoding to build,
 * serialise and parse again (docs/decisions.md, "Vector tiles").
 */
export function encodedParcelTile(parcels: ParcelIndex, view: VerdictMap, tile: TileAddress): Uint8Array {
  const features: TileFeature[] = drawnParcels(parcels, view, tile).map(({ id, geometry }) => ({
    geometry,
    properties: { parcel_key: parcels.keys[id]!, verdict: VERDICTS[view.verdict[id]!], score: view.score[id]! },
  }));
  return encodeTile([{ name: PARCEL_LAYER, features }]);
}
