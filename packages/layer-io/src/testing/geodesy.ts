// Test helper: closed forms that check reprojection independently of proj4.

const R_WEB_MERCATOR = 6378137;

/** EPSG:3857 metres → longitude/latitude (spherical Mercator's exact inverse). */
export function webMercatorToLonLat(x: number, y: number): [number, number] {
  const deg = 180 / Math.PI;
  return [(x / R_WEB_MERCATOR) * deg, (2 * Math.atan(Math.exp(y / R_WEB_MERCATOR)) - Math.PI / 2) * deg];
}

export function lonLatToWebMercator(lon: number, lat: number): [number, number] {
  const rad = Math.PI / 180;
  return [R_WEB_MERCATOR * lon * rad, R_WEB_MERCATOR * Math.log(Math.tan(Math.PI / 4 + (lat * rad) / 2))];
}

/**
 * UTM northing on a zone's central meridian: 0.9996 × the meridian arc from the equator (the
 * classic series in e², e⁴, e⁶), for the GRS80/WGS84 ellipsoid.
 */
export function utmNorthingOnCentralMeridian(lat: number): number {
  const a = 6378137;
  const f = 1 / 298.257222101;
  const e2 = f * (2 - f);
  const e4 = e2 * e2;
  const e6 = e4 * e2;
  const phi = (lat * Math.PI) / 180;
  const arc =
    a *
    ((1 - e2 / 4 - (3 * e4) / 64 - (5 * e6) / 256) * phi -
      ((3 * e2) / 8 + (3 * e4) / 32 + (45 * e6) / 1024) * Math.sin(2 * phi) +
      ((15 * e4) / 256 + (45 * e6) / 1024) * Math.sin(4 * phi) -
      ((35 * e6) / 3072) * Math.sin(6 * phi));
  return 0.9996 * arc;
}

/** Distance in metres between two nearby lon/lat points (equirectangular: fine under a kilometre). */
export function metresBetween([lon1, lat1]: number[], [lon2, lat2]: number[]): number {
  const m = 111_320;
  return Math.hypot((lon2 - lon1) * m * Math.cos((((lat1 + lat2) / 2) * Math.PI) / 180), (lat2 - lat1) * m);
}

/** Great-circle distance on the mean-radius sphere (within 0.5 % of the ellipsoid's, anywhere). */
export function haversineMetres([lon1, lat1]: number[], [lon2, lat2]: number[]): number {
  const rad = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * rad) / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6_371_008.8 * Math.asin(Math.min(1, Math.sqrt(a)));
}
