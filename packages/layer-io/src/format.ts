// Which reader a layer file needs: by extension when it says, else by its first bytes.

import { extname } from 'node:path';
import { formatFromExtension, readFileHead, sniffFormat } from '@landscreen/parcel-io';
import type { LayerFormat } from './types.js';

/** What layers add to the text formats parcel files share (parcel-io knows those). */
const BINARY_BY_EXTENSION: Readonly<Record<string, LayerFormat>> = {
  '.shp': 'shapefile',
  '.zip': 'shapefile',
  '.tif': 'geotiff',
  '.tiff': 'geotiff',
};

export function layerFormatFromExtension(path: string): LayerFormat | null {
  return BINARY_BY_EXTENSION[extname(path).toLowerCase()] ?? formatFromExtension(path);
}

export async function detectFormat(path: string): Promise<LayerFormat> {
  return layerFormatFromExtension(path) ?? sniffLayerFormat(await readFileHead(path));
}

/** Binary formats by their magic numbers; text ones as parcel-io tells them apart. */
export function sniffLayerFormat(head: Buffer): LayerFormat {
  if (head.length >= 4) {
    const magic = head.readUInt32BE(0);
    if (magic === 0x49492a00 || magic === 0x4d4d002a || magic === 0x49492b00 || magic === 0x4d4d002b) return 'geotiff';
    if (magic === 0x504b0304) return 'shapefile'; // a zip: the only zipped format read
    if (magic === 0x0000270a) return 'shapefile'; // the .shp file code
  }
  return sniffFormat(head);
}
