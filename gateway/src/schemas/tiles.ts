import { Type } from '@sinclair/typebox';
import { MAX_ZOOM } from '@landscreen/vector-tiles';
import { Str } from './common.js';

const tileAxis = (description: string) => Type.Integer({ minimum: 0, description });

/** z/x/y of a web-map tile (XYZ scheme); x and y below 2^z, checked by the service. */
const TileAddress = {
  z: Type.Integer({ minimum: 0, maximum: MAX_ZOOM, description: `Zoom, 0-${MAX_ZOOM} (D40).` }),
  x: tileAxis('Column, 0 to 2^z - 1, from the antimeridian eastwards.'),
  y: tileAxis('Row, 0 to 2^z - 1, from the north.'),
};

export const ParcelTilePath = Type.Object({ market: Str(1, 255, { description: 'The market slug.' }), ...TileAddress });
export const ParcelTileQuery = Type.Object({ buy_box: Str(1, 255, { description: 'The saved buy box the parcels are ranked against (its market must be this one).' }) });

export const LayerTilePath = Type.Object({ source: Str(1, 100, { description: 'A vector source of GET /v1/meta/sources.' }), ...TileAddress });
export const LayerTileQuery = Type.Object({
  version: Type.Optional(
    Str(1, 100, { description: 'The layer version the URL shows (its `current_version.id`): the answer may then be cached for good; a version no longer current is 409 stale_layer_version.' }),
  ),
});

export const TileHeaders = Type.Object({
  authorization: Type.Optional(Type.String({ description: 'Bearer <session token> (D4), dev:<email>[:<role>] (D7) or the legacy shared secret; or the console\'s session cookie.' })),
  'x-tenant': Type.Optional(Type.String({ description: 'Slug of the tenant to act in (D3).' })),
  'if-none-match': Type.Optional(Type.String({ description: 'An ETag of this tile the client holds: 304 when it is still the tile.' })),
});
