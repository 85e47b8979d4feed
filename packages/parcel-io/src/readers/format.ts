// Which parser a file needs: by extension when it says, else by looking at its first bytes.

import { open } from 'node:fs/promises';
import { extname } from 'node:path';
import type { ParcelFileFormat } from '../types.js';

const BY_EXTENSION: Readonly<Record<string, ParcelFileFormat>> = {
  '.geojson': 'geojson',
  '.json': 'geojson',
  '.ndjson': 'ndjson',
  '.geojsonl': 'ndjson',
  '.geojsons': 'ndjson',
  '.geojsonseq': 'ndjson',
  '.jsonl': 'ndjson',
  '.csv': 'csv',
};

/** How much of the file the sniffer looks at: enough for the first Feature of most files. */
const SNIFF_BYTES = 64 * 1024;

export function formatFromExtension(path: string): ParcelFileFormat | null {
  return BY_EXTENSION[extname(path).toLowerCase()] ?? null;
}

export async function detectFormat(path: string): Promise<ParcelFileFormat> {
  return formatFromExtension(path) ?? sniffFormat(await readFileHead(path));
}

/** The first bytes of a file, as many as a format sniffer needs. */
export async function readFileHead(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * From the first bytes: an RS byte starts a GeoJSON text sequence; `{` is either a
 * FeatureCollection or a Feature-per-line file, told apart by whether the first line alone
 * parses as a Feature; anything else is taken for a CSV header.
 */
export function sniffFormat(head: Buffer): ParcelFileFormat {
  let i = head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && (head[i] === 0x20 || head[i] === 0x09 || head[i] === 0x0a || head[i] === 0x0d)) i++;
  if (i === head.length) throw new Error('cannot tell the format of an empty file; name it .geojson, .ndjson or .csv');
  if (head[i] === 0x1e) return 'ndjson';
  if (head[i] !== 0x7b && head[i] !== 0x5b) return 'csv';
  const newline = head.indexOf(0x0a, i);
  if (newline < 0) return 'geojson';
  try {
    const first = JSON.parse(head.toString('utf8', i, newline)) as { type?: unknown } | null;
    return first?.type === 'Feature' ? 'ndjson' : 'geojson';
  } catch {
    return 'geojson';
  }
}
