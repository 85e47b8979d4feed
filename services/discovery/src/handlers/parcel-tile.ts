import type { MessageInitShape } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { compileSpec, queryHash, type CanonicalSpec } from '@landscreen/buybox-spec';
import type { discoveryv1 } from '@landscreen/proto';
import { requireCaller, validationError } from '@landscreen/rpc';
import { EXTENT, isTileOf, MAX_ZOOM, tileEtag } from '@landscreen/vector-tiles';
import type { DiscoveryContext } from '../context.js';
import { marketForCaller } from '../market-access.js';
import { rankSpecOf } from '../ranking/rank.js';
import { encodedParcelTile, parcelTileFeatures } from '../tiles/parcel-tile-features.js';
import type { TileViews } from '../tiles/tile-views.js';
import { loadBuyBox } from './buy-boxes.js';

type Response = MessageInitShape<typeof discoveryv1.ParcelTileResponseSchema>;

/**
 * D40: one map tile of a market's current vintage ranked against a saved buy box. The tile
 * address, the market (404, 403 not_entitled, 409) and the buy box (404, also another tenant's;
 * 422 for a box of another market) are checked first; the etag (query_hash and tile) is known before any geometry is touched, so a
 * tile the caller holds costs two small reads.
 */
export function parcelTileHandler(context: DiscoveryContext, views: TileViews) {
  return async (request: discoveryv1.ParcelTileRequest, call: HandlerContext): Promise<Response> => {
    const { tenantId } = requireCaller(call);
    const tile = { z: request.z, x: request.x, y: request.y };
    validateTile(tile);
    const access = await marketForCaller(context, tenantId, request.market);
    const saved = await loadBuyBox(context, tenantId, request.buyBox);
    const spec = saved.spec as CanonicalSpec;
    if (spec.markets[0] !== request.market) {
      throw validationError([
        {
          type: 'value_error',
          loc: ['query', 'buy_box'],
          msg: `Value error, buy box "${saved.name}" screens market "${spec.markets[0]}", not "${request.market}"`,
          input: request.buyBox,
          ctx: { error: 'buy box of another market' },
        },
      ]);
    }
    const hash = queryHash(spec, access.market.id, access.vintage.id);
    const etag = tileEtag([hash], tile);
    const answer = { etag, vintageId: access.vintage.id, queryHash: hash, extent: EXTENT };
    if (request.knownEtags.includes(etag)) return { ...answer, notModified: true };
    const compiled = compileSpec(spec);
    const [index, parcels] = await Promise.all([context.indexes.ranking(access, call), context.indexes.parcels(access, call)]);
    const ranking = await context.ranker.ranking(hash, index, rankSpecOf(compiled));
    const view = await views.view(hash, parcels, index, ranking, compiled.cutoffs);
    if (request.encoded) return { ...answer, notModified: false, tile: encodedParcelTile(parcels, view, tile) };
    return { ...answer, notModified: false, features: parcelTileFeatures(parcels, view, tile) };
  };
}

/** The gateway's schema checks z; x and y depend on it. */
function validateTile(tile: { z: number; x: number; y: number }): void {
  if (tile.z > MAX_ZOOM) {
    throw validationError([{ type: 'less_than_equal', loc: ['path', 'z'], msg: `Input should be less than or equal to ${MAX_ZOOM}`, input: tile.z, ctx: { le: MAX_ZOOM } }]);
  }
  if (isTileOf(tile)) return;
  const last = 2 ** tile.z - 1;
  const issues = (['x', 'y'] as const)
    .filter((axis) => tile[axis] > last)
    .map((axis) => ({ type: 'less_than_equal', loc: ['path', axis], msg: `Input should be less than or equal to ${last}`, input: tile[axis], ctx: { le: last } }));
  throw validationError(issues);
}
