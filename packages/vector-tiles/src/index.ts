export { BUFFER, EXTENT, MAX_ZOOM, MIN_ZOOM, isTileOf, latOfY, lonOfX, tileBox, type TileAddress } from './tile-address.js';
export { TileProjector } from './project.js';
export { LINE, POINT, POLYGON, tileGeometry, type PackedShapeLike, type TileClip, type TileGeometry, type TileGeometryType } from './tile-geometry.js';
export { encodeTile, geometryCommands, type TileFeature, type TileLayer, type TileValue } from './encode.js';
export { LayerWriter } from './layer-writer.js';
export { WorldPolygonWriter, worldCoordinates, worldCoordinatesOf, worldYs, type FlatPolygon } from './world-polygon.js';
export { tileEtag } from './etag.js';
