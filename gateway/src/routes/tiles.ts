import { LayerTilePath, LayerTileQuery, ParcelTilePath, ParcelTileQuery, TileHeaders } from '../schemas/tiles.js';
import { encodeLayerTile, encodeParcelTile } from '../tiles/encode-features.js';
import { MVT, tileAnswer } from '../tiles/tile-answer.js';
import { TileCache } from '../tiles/tile-cache.js';
import { asCaller } from './call.js';
import { errors, file, noContent, SIGNED_IN } from './responses.js';
import { READERS } from './roles.js';
import type { GatewayDeps, RouteDef } from './route.js';

/** Encoded tiles kept per gateway (the app's dependencies), 64 MiB at most. */
const caches = new WeakMap<GatewayDeps, TileCache>();
const cacheOf = (deps: GatewayDeps) => {
  let cache = caches.get(deps);
  if (!cache) caches.set(deps, (cache = new TileCache(64 * 1024 * 1024)));
  return cache;
};

/** A parcel tile's URL names a buy box whose spec may change: revalidate by ETag every time. */
const REVALIDATE = 'private, no-cache';
/** A layer tile whose URL names its layer version never changes. */
const IMMUTABLE = 'private, max-age=31536000, immutable';

const tileResponses = (what: string) => ({
  200: file(`${what} as a Mapbox Vector Tile (uncompressed protobuf), with a strong ETag.`, MVT),
  304: noContent('Not Modified: the If-None-Match ETag is still this tile.'),
});

export const tileRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/v1/tiles/parcels/{market}/{z}/{x}/{y}.mvt',
    operationId: 'parcelTile',
    summary: 'A map tile of a market ranked against a buy box',
    description:
      'D40: the eligible parcels of the market\'s current vintage meeting the tile, in one layer `parcels`, each with `parcel_key`, `verdict` (PURSUE, MONITOR or HOLD) and `score`. The ETag names the vintage, the buy box\'s spec and the tile. Past 50,000 parcels in one tile (a whole market at a low zoom) the best-scored are drawn.',
    tag: 'tiles',
    security: 'session',
    roles: READERS,
    request: { headers: TileHeaders, path: ParcelTilePath, query: ParcelTileQuery },
    responses: {
      ...tileResponses('The parcels'),
      ...errors([...SIGNED_IN, 404, 409], {
        403: 'not_entitled: the tenant is not entitled to the market (D16); or forbidden, not_member (D8).',
        404: 'buy_box_not_found (also another tenant\'s) or market_not_found.',
        409: 'market_not_loaded: the market has no parcels loaded yet.',
        422: 'Validation error (D1): z outside 0-22, x or y outside the zoom\'s tiles, or a buy box of another market.',
      }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { market, z, x, y } = request.path;
      const buyBox = request.query.buy_box;
      return tileAnswer({
        request: raw,
        cache: cacheOf(deps),
        key: `parcels|${caller!.tenantId}|${market}|${buyBox}|${z}/${x}/${y}`,
        cacheControl: REVALIDATE,
        ask: (knownEtags) => deps.clients.discovery.parcelTile({ market, buyBox, z, x, y, knownEtags, encoded: true }, asCaller(caller, raw.id)),
        encode: encodeParcelTile,
      });
    },
  },
  {
    method: 'GET',
    path: '/v1/tiles/layers/{source}/{z}/{x}/{y}.mvt',
    operationId: 'layerTile',
    summary: 'A map tile of a layer source\'s current version',
    description:
      'D40: the features of the source\'s current layer version meeting the tile, in one layer named after the source, each with its id and the properties the source declares (GET /v1/meta/sources). With `version` (the current version\'s id) the answer may be cached for good.',
    tag: 'tiles',
    security: 'session',
    roles: READERS,
    request: { headers: TileHeaders, path: LayerTilePath, query: LayerTileQuery },
    responses: {
      ...tileResponses('The layer\'s features'),
      ...errors([...SIGNED_IN, 404, 409], {
        404: 'source_not_found: no such layer source.',
        409: 'layer_not_loaded (no version loaded yet) or stale_layer_version (`version` is no longer current; `current_version` names it).',
        422: 'Validation error (D1): z outside 0-22, x or y outside the zoom\'s tiles, or a grid source.',
      }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { source, z, x, y } = request.path;
      const version = request.query.version;
      return tileAnswer({
        request: raw,
        cache: cacheOf(deps),
        key: `layers|${source}|${z}/${x}/${y}`,
        cacheControl: version ? IMMUTABLE : REVALIDATE,
        ask: (knownEtags) => deps.clients.catalog.layerTile({ source, z, x, y, version: version ?? '', knownEtags }, asCaller(caller, raw.id)),
        encode: (answer) => encodeLayerTile(source, answer),
      });
    },
  },
];
