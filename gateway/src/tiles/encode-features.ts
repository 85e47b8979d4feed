import type { catalogv1, commonv1, discoveryv1 } from '@landscreen/proto';
import { encodeTile, type TileGeometry, type TileGeometryType, type TileValue } from '@landscreen/vector-tiles';

/** The layer name parcel tiles carry their features in. */
export const PARCEL_LAYER = 'parcels';

const geometryOf = (geometry: commonv1.TileGeometry | undefined): TileGeometry => ({
  type: (geometry?.type ?? 3) as TileGeometryType,
  paths: (geometry?.paths ?? []).map((path) => path.xy),
});

/**
 * A parcel tile: one `parcels` layer whose features carry parcel_key, verdict and score (D40);
 * the service's own encoding when it sent one (the gateway asks for it), else written here.
 */
export function encodeParcelTile(answer: discoveryv1.ParcelTileResponse): Uint8Array {
  if (answer.tile.byteLength > 0) return answer.tile;
  const features = answer.features.map((feature) => ({
    geometry: geometryOf(feature.geometry),
    properties: { parcel_key: feature.parcelKey, verdict: feature.verdict, score: feature.score },
  }));
  return encodeTile([{ name: PARCEL_LAYER, features }], answer.extent);
}

/** A layer tile: one layer named after the source, features with their id and declared properties. */
export function encodeLayerTile(source: string, answer: catalogv1.LayerTileResponse): Uint8Array {
  const features = answer.features.map((feature) => {
    const properties: Record<string, TileValue> = {};
    for (const property of feature.properties) if (property.value.case !== undefined) properties[property.name] = property.value.value;
    return { id: feature.id, geometry: geometryOf(feature.geometry), properties };
  });
  return encodeTile([{ name: source, features }], answer.extent);
}
