import type { MessageInitShape } from '@bufbuild/protobuf';
import type { discoveryv1 } from '@landscreen/proto';
import { geometryCommands, LayerWriter, TileProjector, tileBox, tileGeometry, worldCoordinatesOf, WorldPolygonWriter, type FlatPolygon, type TileAddress, type TileGeometry } from '@landscreen/vector-tiles';
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

/** The eligible parcels meeting the tile (the best-scored past the bound), in the index's order. */
function selectedParcels(parcels: ParcelIndex, view: VerdictMap, box: readonly [number, number, number, number]): number[] {
  let ids = parcels.searchBox(box[0], box[1], box[2], box[3]).filter((id) => view.verdict[id] !== 0);
  if (ids.length > MAX_TILE_FEATURES) ids = ids.sort((a, b) => view.score[b]! - view.score[a]! || a - b).slice(0, MAX_TILE_FEATURES);
  return ids;
}

/** The eligible parcels meeting the tile as typed messages, with verdict and score, in the tile's coordinates. */
export function parcelTileFeatures(parcels: ParcelIndex, view: VerdictMap, tile: TileAddress): FeatureInit[] {
  const box = tileBox(tile);
  const clip = { projector: new TileProjector(tile), box };
  const drawn: DrawnParcel[] = [];
  for (const id of selectedParcels(parcels, view, box)) {
    const geometry = tileGeometry(parcels.shape(id)!, clip);
    if (geometry !== null) drawn.push({ id, geometry });
  }
  return drawn.map(({ id, geometry }) => ({
    parcelKey: parcels.keys.at(id)!,
    verdict: VERDICTS[view.verdict[id]!],
    score: view.score[id]!,
    geometry: { type: geometry.type, paths: geometry.paths.map((xy) => ({ xy })) },
  }));
}

/**
 * The same parcels as an encoded vector tile (the gateway serves these bytes as they are): a
 * selection and a writer. A parcel inside the tile goes from its world coordinates (x from its
 * longitudes as it is drawn, y as the index keeps it: a sine and a logarithm a vertex made per
 * tile cost up to a fifth of a tile's time) straight to command integers; one the tile's edge cuts is
 * clipped as parcelTileFeatures clips it. The bytes are those encodeTile writes from
 * parcelTileFeatures (parcel-index-store.test.ts).
 */
export function encodedParcelTile(parcels: ParcelIndex, view: VerdictMap, tile: TileAddress): Uint8Array {
  const box = tileBox(tile);
  const clip = { projector: new TileProjector(tile), box };
  const writer = new LayerWriter(PARCEL_LAYER);
  const inside = new WorldPolygonWriter(tile);
  const { flat, worldY } = parcels;
  const polygon: FlatPolygon = { world: new Float64Array(256), coordStart: 0, paths: flat.paths, pathStart: 0, polygons: flat.polygons, polygonStart: 0, polygonEnd: 0 };
  const clipped: number[] = [];
  const tags = [0, 0, 0, 0, 0, 0];
  let keysNamed = false;
  for (const id of selectedParcels(parcels, view, box)) {
    const b = id * 4;
    let commands: number[];
    let count: number;
    if (flat.boxes[b]! >= box[0] && flat.boxes[b + 1]! >= box[1] && flat.boxes[b + 2]! <= box[2] && flat.boxes[b + 3]! <= box[3]) {
      const first = flat.coordStarts[id]!;
      const end = flat.coordStarts[id + 1]!;
      if (polygon.world.length < (end - first) * 2) polygon.world = new Float64Array((end - first) * 4);
      worldCoordinatesOf(flat.coords, worldY, first, end, polygon.world);
      polygon.pathStart = flat.pathStarts[id]!;
      polygon.polygonStart = flat.polygonStarts[id]!;
      polygon.polygonEnd = flat.polygonStarts[id + 1]!;
      count = inside.write(polygon);
      commands = inside.commands;
    } else {
      const geometry = tileGeometry(parcels.shape(id)!, clip);
      clipped.length = 0;
      count = geometry === null ? 0 : geometryCommands(geometry, clipped).length;
      commands = clipped;
    }
    if (count === 0) continue;
    if (!keysNamed) {
      // Keys enter the layer's table as the first feature names them, as encodeTile enters them.
      tags[0] = writer.key('parcel_key');
      tags[2] = writer.key('verdict');
      tags[4] = writer.key('score');
      keysNamed = true;
    }
    tags[1] = writer.value(parcels.keys.at(id)!);
    tags[3] = writer.value(VERDICTS[view.verdict[id]!]);
    tags[5] = writer.value(view.score[id]!);
    writer.add(3, commands, count, tags);
  }
  return writer.finish();
}
