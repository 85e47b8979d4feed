// Which reader a layer file needs: by extension when it says, else by its first bytes.

import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import { sniffFormat } from '@landscreen/parcel-io';
import type { LayerFormat } from './types.js';

const BY_EXTENSION: Readonly<Record<string, LayerFormat>> = {
  '.geojson': 'geojson',
  '.json': 'geojson',
  '.ndjson': 'ndjson',
  '.geojsonl': 'ndjson',
  '.geojsons': 'ndjson',
  '.geojsonseq': 'ndjson',
  '.jsonl': 'ndjson',
  '.csv': 'csv',
  '.shp': 'shapefile',
  '.zip': 'shapefile',
  '.tif': 'geotiff',
  '.tiff': 'geotiff',
};

const SNIFF_BYTES = 64 * 1024;

export function layerFormatFromExtension(path: string): LayerFormat | null {
  return BY_EXTENSION[extname(path).toLowerCase()] ?? null;
}

export async function detectFormat(path: string): Promise<LayerFormat> {
  const byExtension = layerFormatFromExtension(path);
  if (byExtension !== null) return byExtension;
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return sniffLayerFormat(buffer.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
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
