// A zip read through yauzl's central directory: names and sizes without inflating anything, one
// entry streamed or read whole (with a cap), or a subset streamed out to a folder. Every byte a
// reader takes out of a zip goes through here, so the import limits on expansion (total size,
// ratio) have one place to hook in.

import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { LayerReadError } from '../errors.js';

export interface ZipArchive {
  readonly path: string;
  /** Files only (no folder entries, no macOS resource forks). */
  readonly entries: readonly yauzl.Entry[];
  stream(entry: yauzl.Entry): Promise<Readable>;
  /** The entry's bytes; refused past `maxBytes` (checked against the declared and the real size). */
  read(entry: yauzl.Entry, maxBytes: number): Promise<Buffer>;
  /** Streams the entries into `folder`, keeping their relative paths; answers how many bytes it wrote. */
  extract(entries: readonly yauzl.Entry[], folder: string, strip?: string): Promise<number>;
  close(): void;
}

export async function openZipArchive(path: string): Promise<ZipArchive> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false }, (error, opened) => {
      if (error !== null) reject(new LayerReadError(path, `not a readable zip file: ${error.message}`));
      else resolve(opened);
    });
  });
  try {
    const entries = await listEntries(zip);
    return archive(path, zip, entries);
  } catch (error) {
    zip.close();
    throw error;
  }
}

/** The names in a zip, for telling its content apart (closes it again). */
export async function zipEntryNames(path: string): Promise<string[]> {
  const zip = await openZipArchive(path);
  try {
    return zip.entries.map((entry) => entry.fileName);
  } finally {
    zip.close();
  }
}

function archive(path: string, zip: yauzl.ZipFile, entries: yauzl.Entry[]): ZipArchive {
  const stream = (entry: yauzl.Entry): Promise<Readable> => zip.openReadStreamPromise(entry);
  return {
    path,
    entries,
    stream,
    async read(entry, maxBytes) {
      if (entry.uncompressedSize > maxBytes) throw tooLarge(path, entry, maxBytes);
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of (await stream(entry)) as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > maxBytes) throw tooLarge(path, entry, maxBytes);
        chunks.push(chunk);
      }
      return Buffer.concat(chunks);
    },
    async extract(selected, folder, strip = '') {
      let written = 0;
      for (const entry of selected) {
        const relative = normalize(entry.fileName.slice(strip.length));
        // yauzl already refuses absolute paths and "..": this keeps a stripped prefix honest too.
        if (relative.startsWith('..') || relative.startsWith(sep)) throw new LayerReadError(path, `${entry.fileName}: a path outside the archive`);
        const target = join(folder, relative);
        await mkdir(dirname(target), { recursive: true });
        const input = await stream(entry);
        input.on('data', (chunk: Buffer) => (written += chunk.length));
        await pipeline(input, createWriteStream(target));
      }
      return written;
    },
    close: () => zip.close(),
  };
}

function tooLarge(path: string, entry: yauzl.Entry, maxBytes: number): LayerReadError {
  return new LayerReadError(path, `${entry.fileName} is larger than the ${Math.round(maxBytes / 2 ** 20)} MiB this reader holds in memory`);
}

function listEntries(zip: yauzl.ZipFile): Promise<yauzl.Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: yauzl.Entry[] = [];
    zip.on('entry', (entry: yauzl.Entry) => {
      if (!entry.fileName.startsWith('__MACOSX/') && !entry.fileName.endsWith('/')) entries.push(entry);
      zip.readEntry();
    });
    zip.once('end', () => resolve(entries));
    zip.once('error', reject);
    zip.readEntry();
  });
}
