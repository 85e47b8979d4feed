// What both GDALs are asked for: GeoJSON Sequence without record separators, coordinates at full
// double precision (the default rounds to 7 decimals, about a centimetre). The driver writes
// WGS84 longitude/latitude whatever the layer's CRS, reprojecting with PROJ.

export const GEOJSON_LINES_OPTIONS = ['-f', 'GeoJSONSeq', '-lco', 'RS=NO', '-lco', 'COORDINATE_PRECISION=15'];
