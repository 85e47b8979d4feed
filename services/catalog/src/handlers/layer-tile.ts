import type { MessageInitShape } from '@bufbuild/protobuf';
import { isLayerSource, SOURCE_DECLARATION_BY_ID, type SourceId } from '@landscreen/field-catalog';
import type { catalogv1 } from '@landscreen/proto';
import { conflict, notFound, validationError } from '@landscreen/rpc';
import { EXTENT, isTileOf, MAX_ZOOM, tileEtag } from '@landscreen/vector-tiles';
import type { LayerCache } from '../layers/layer-cache.js';
import { layerTileFeatures } from '../layers/tile-features.js';

type Response = MessageInitShape<typeof catalogv1.LayerTileResponseSchema>;

/**
 * D40: one map tile of a vector source's current layer version, with its declared properties.
 * Layers are the catalog's, read by every signed-in caller as GET /v1/meta/sources is. The etag
 * names the version and the tile, so a tile with the same etag never changes.
 */
export function layerTileHandler(layers: LayerCache) {
  return async (request: catalogv1.LayerTileRequest): Promise<Response> => {
    const tile = { z: request.z, x: request.x, y: request.y };
    validateTile(tile);
    const declaration = SOURCE_DECLARATION_BY_ID.get(request.source as SourceId);
    if (!isLayerSource(declaration)) throw notFound('source_not_found', `No layer source "${request.source}" (GET /v1/meta/sources lists them).`);
    if (declaration.geometry === 'grid') {
      throw validationError([
        { type: 'value_error', loc: ['path', 'source'], msg: `Value error, ${declaration.id} is a grid source: map tiles draw vector sources`, input: request.source, ctx: { error: 'grid source' } },
      ]);
    }
    const { engine, versions } = await layers.current();
    const current = versions.find((version) => version.source === declaration.id);
    if (!current) throw conflict('layer_not_loaded', `Source ${declaration.id} has no layer loaded yet.`);
    if (request.version !== '' && request.version !== current.id) {
      throw conflict('stale_layer_version', `Layer version ${request.version} of ${declaration.id} is no longer current (${current.id} is).`, { current_version: current.id });
    }
    const etag = tileEtag([current.id], tile);
    const answer = { etag, version: current.id, extent: EXTENT };
    if (request.knownEtags.includes(etag)) return { ...answer, notModified: true };
    const layer = engine.layer(declaration.id);
    // The engine may already hold a newer version than the one read a moment ago: draw what it holds only when it matches.
    if (layer?.kind !== 'vector' || layer.version !== current.id) throw conflict('stale_layer_version', `Layer ${declaration.id} changed while drawing; ask again.`);
    return { ...answer, notModified: false, features: layerTileFeatures(layer, declaration, tile) };
  };
}

function validateTile(tile: { z: number; x: number; y: number }): void {
  if (tile.z > MAX_ZOOM) {
    throw validationError([{ type: 'less_than_equal', loc: ['path', 'z'], msg: `Input should be less than or equal to ${MAX_ZOOM}`, input: tile.z, ctx: { le: MAX_ZOOM } }]);
  }
  if (isTileOf(tile)) return;
  const last = 2 ** tile.z - 1;
  throw validationError(
    (['x', 'y'] as const)
      .filter((axis) => tile[axis] > last)
      .map((axis) => ({ type: 'less_than_equal', loc: ['path', axis], msg: `Input should be less than or equal to ${last}`, input: tile[axis], ctx: { le: last } })),
  );
}
