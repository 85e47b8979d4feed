// The EPSG codes answerable without a network. proj4 ships 4326, 4269 (NAD83), 3857 and the
// WGS84 UTM zones (326xx north, 327xx south); the ones US public layers use most are written here
// as proj strings, and every other code is looked up in the EPSG dataset (epsg-index.ts). A .prj
// carries its own WKT definition, so any CRS proj4 can parse works there; only a bare code
// (GeoTIFF geokeys, a GeoJSON "crs") needs these. The NAD83 realisations are taken as WGS84-aligned (towgs84 0), as proj4 does for
// NAD83 itself: the difference (about a metre) is below what the layers resolve.

import proj4 from 'proj4';

const NAD83_UTM_ZONES = { first: 1, last: 23 }; // EPSG:26901 … 26923, Alaska to Greenland

const EXTRA_DEFINITIONS: ReadonlyArray<[string, string]> = [
  ['EPSG:4152', '+title=NAD83(HARN) +proj=longlat +ellps=GRS80 +towgs84=0,0,0 +units=degrees'],
  ['EPSG:4759', '+title=NAD83(NSRS2007) +proj=longlat +ellps=GRS80 +towgs84=0,0,0 +units=degrees'],
  ['EPSG:6318', '+title=NAD83(2011) +proj=longlat +ellps=GRS80 +towgs84=0,0,0 +units=degrees'],
  [
    'EPSG:5070',
    '+title=NAD83 / Conus Albers +proj=aea +lat_0=23 +lon_0=-96 +lat_1=29.5 +lat_2=45.5 +x_0=0 +y_0=0 +datum=NAD83 +units=m',
  ],
  [
    'EPSG:6350',
    '+title=NAD83(2011) / Conus Albers +proj=aea +lat_0=23 +lon_0=-96 +lat_1=29.5 +lat_2=45.5 +x_0=0 +y_0=0 +ellps=GRS80 +towgs84=0,0,0 +units=m',
  ],
];

/** Codes that name Web Mercator besides 3857 (ArcGIS writes 102100). */
const WEB_MERCATOR_ALIASES = ['EPSG:102100', 'ESRI:102100', 'ESRI:102113'];

let registered = false;

/** Idempotent: every reader calls it before asking proj4 about a code. */
export function registerDefinitions(): void {
  if (registered) return;
  registered = true;
  for (let zone = NAD83_UTM_ZONES.first; zone <= NAD83_UTM_ZONES.last; zone++) {
    proj4.defs(`EPSG:${26900 + zone}`, `+title=NAD83 / UTM zone ${zone}N +proj=utm +zone=${zone} +datum=NAD83 +units=m`);
  }
  for (const [code, definition] of EXTRA_DEFINITIONS) proj4.defs(code, definition);
  for (const alias of WEB_MERCATOR_ALIASES) proj4.defs(alias, proj4.defs('EPSG:3857'));
}

/** What the refusal of an unknown code lists, so the operator knows what would have worked. */
export const KNOWN_CODES_SUMMARY = "the EPSG dataset's geographic and projected CRSs, and ArcGIS's 102100";
