// KML and KMZ through @tmcw/togeojson over an @xmldom/xmldom document. KML is always WGS84
// longitude/latitude (altitude kept as z). A KMZ is a zip whose main document is doc.kml (else
// its first .kml), read through the zip helper; the documents it links with NetworkLinks inside
// the archive (GDAL's LIBKML driver puts each layer in layers/NAME.kml) are read after it. The DOM holds the whole document, so a file is
// read only up to KML_MAX_BYTES: publishers ship KML for small layers (large ones come as
// Shapefile, FileGDB or GeoPackage). A MultiGeometry of one kind becomes the matching Multi*
// geometry; a mixed one has no GeoJSON counterpart the engine reads and is refused.

import { readFile, stat } from 'node:fs/promises';
import { kmlGen } from '@tmcw/togeojson';
import { DOMParser } from '@xmldom/xmldom';
import { WGS84 } from '../crs/crs.js';
import { LayerReadError, errorMessage } from '../errors.js';
import type { ImportLimits } from '../limits/import-limits.js';
import { openZipArchive } from '../zip/zip-archive.js';
import type { ReadLayerOptions } from '../types.js';
import { checkedGeometry } from './checked-geometry.js';
import type { ByteCounter, FormatReader, RawFeature } from './raw-feature.js';

/** The largest KML document read into memory (its DOM takes several times this). */
export const KML_MAX_BYTES = 256 * 2 ** 20;

/** `_options` is the pipeline's: what the import limits will read. */
export function readKml(path: string, zipped: boolean, _options: ReadLayerOptions, limits: ImportLimits): FormatReader {
  const bytes: ByteCounter = { bytesRead: 0, totalBytes: 0 };
  return { features: features(path, zipped, bytes, limits), bytes, hasSchema: false };
}

async function* features(path: string, zipped: boolean, bytes: ByteCounter, limits: ImportLimits): AsyncGenerator<RawFeature> {
  const documents = zipped ? await kmzDocuments(path, limits) : [parse(path, await kmlText(path))];
  bytes.totalBytes = (await stat(path)).size;
  let index = 0;
  for (const document of documents) {
    for (const feature of kmlGen(document)) {
      // NetworkLinks (followed above, inside a KMZ) and GroundOverlays (images) are no features.
      if (feature.properties?.['@geometry-type'] !== undefined) continue;
      index++;
      const position = { index };
      const geometry = flattened(path, feature.geometry, position);
      const properties = { ...(feature.properties ?? {}) } as Record<string, unknown>;
      bytes.bytesRead = bytes.totalBytes;
      yield { position, geometry: checkedGeometry(path, geometry, position), properties, toWgs84: null, crsLabel: WGS84.label };
    }
  }
}

type KmlDocument = ReturnType<DOMParser['parseFromString']>;

function parse(path: string, text: string): KmlDocument {
  try {
    return new DOMParser({
      onError: (level, message) => {
        if (level === 'fatalError') throw new Error(message);
      },
    }).parseFromString(text, 'text/xml');
  } catch (error) {
    throw new LayerReadError(path, `not well-formed KML: ${errorMessage(error)}`);
  }
}

async function kmlText(path: string): Promise<string> {
  const { size } = await stat(path);
  if (size > KML_MAX_BYTES) throw new LayerReadError(path, `the KML is larger than the ${KML_MAX_BYTES / 2 ** 20} MiB read into memory; convert it (ogr2ogr -f GPKG)`);
  return readFile(path, 'utf8');
}

/** doc.kml, then the archive's documents it links to, each once, within KML_MAX_BYTES in all. */
async function kmzDocuments(path: string, limits: ImportLimits): Promise<KmlDocument[]> {
  const zip = await openZipArchive(path, limits);
  try {
    const kmls = zip.entries.filter((entry) => entry.fileName.toLowerCase().endsWith('.kml'));
    const main = kmls.find((entry) => entry.fileName.toLowerCase() === 'doc.kml') ?? kmls[0];
    if (main === undefined) throw new LayerReadError(path, 'the KMZ holds no .kml document');
    const documents: KmlDocument[] = [];
    const seen = new Set<string>();
    let budget = KML_MAX_BYTES;
    const queue = [main];
    while (queue.length > 0) {
      const entry = queue.shift()!;
      if (seen.has(entry.fileName)) continue;
      seen.add(entry.fileName);
      const bytes = await zip.read(entry, budget);
      budget -= bytes.length;
      const document = parse(path, bytes.toString('utf8'));
      documents.push(document);
      const base = entry.fileName.includes('/') ? entry.fileName.slice(0, entry.fileName.lastIndexOf('/') + 1) : '';
      for (const link of Array.from(document.getElementsByTagName('NetworkLink'))) {
        const href = link.getElementsByTagName('href')[0]?.textContent?.trim();
        const target = href === undefined ? undefined : kmls.find((candidate) => candidate.fileName === `${base}${href}` || candidate.fileName === href);
        if (target !== undefined) queue.push(target);
      }
    }
    return documents;
  } finally {
    zip.close();
  }
}

interface AnyGeometry {
  type: string;
  coordinates?: unknown;
  geometries?: AnyGeometry[];
}

const MULTI: Readonly<Record<string, string>> = { Point: 'MultiPoint', LineString: 'MultiLineString', Polygon: 'MultiPolygon' };

function flattened(path: string, geometry: AnyGeometry | null, position: RawFeature['position']): unknown {
  if (geometry === null || geometry.type !== 'GeometryCollection') return geometry;
  const parts = (geometry.geometries ?? []).flatMap((part) => (part.type.startsWith('Multi') ? (part.coordinates as unknown[]).map((coordinates) => ({ type: part.type.slice(5), coordinates })) : [part]));
  if (parts.length === 0) return null;
  const kinds = new Set(parts.map((part) => part.type));
  const [kind] = kinds;
  if (kinds.size > 1 || MULTI[kind] === undefined) {
    throw new LayerReadError(path, `a MultiGeometry mixes ${[...kinds].join(', ')}: split it into one placemark per kind`, position);
  }
  return { type: MULTI[kind], coordinates: parts.map((part) => part.coordinates) };
}
