import type { MessageInitShape } from '@bufbuild/protobuf';
import type { LayerSource } from '@landscreen/field-catalog';
import type { VectorLayerIndex } from '@landscreen/point-engine';
import type { catalogv1 } from '@landscreen/proto';
import { TileProjector, tileBox, tileGeometry, type TileAddress } from '@landscreen/vector-tiles';

type FeatureInit = MessageInitShape<typeof catalogv1.LayerTileFeatureSchema>;
type PropertyInit = MessageInitShape<typeof catalogv1.TilePropertySchema>;

/** At most this many features in one tile (a national layer seen whole at a low zoom): the first ones are drawn. */
export const MAX_LAYER_TILE_FEATURES = 50_000;

/** The layer's features meeting the tile, in the tile's coordinates, with their declared properties. */
export function layerTileFeatures(layer: VectorLayerIndex, declaration: LayerSource, tile: TileAddress): FeatureInit[] {
  const box = tileBox(tile);
  const ids = layer
    .searchBox(box[0], box[1], box[2], box[3])
    .sort((a, b) => a - b)
    .slice(0, MAX_LAYER_TILE_FEATURES);
  const clip = { projector: new TileProjector(tile), box };
  const features: FeatureInit[] = [];
  for (const id of ids) {
    const geometry = tileGeometry(layer.shape(id), clip);
    if (geometry === null) continue;
    const properties: PropertyInit[] = [];
    for (const { name } of declaration.properties) {
      const value = layer.property(id, name);
      if (typeof value === 'string') properties.push({ name, value: { case: 'text', value } });
      else if (typeof value === 'number') properties.push({ name, value: { case: 'number', value } });
      else if (typeof value === 'boolean') properties.push({ name, value: { case: 'flag', value } });
    }
    features.push({ id, properties, geometry: { type: geometry.type, paths: geometry.paths.map((xy) => ({ xy })) } });
  }
  return features;
}
