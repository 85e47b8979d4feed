// A zip read through yauzl's central directory: names and sizes without inflating anything, one
// entry streamed or read whole (with a cap), or a subset streamed out to a folder. Every byte a
// reader takes out of a zip goes through here, and so through the import limits on expansion:
// the sizes the central directory declares are checked before an entry is opened, and the bytes
// really inflated are counted as they come (a header may lie; yauzl also refuses an entry that
// inflates to another size than it declared).

import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { LayerReadError, errorMessage } from '../errors.js';
import { DEFAULT_IMPORT_LIMITS, limitExceeded, ZIP_RATIO_FLOOR_BYTES, type ImportLimits } from '../limits/import-limits.js';
import { zipFileSource, type ZipFileSource } from './file-reader.js';

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

export async function openZipArchive(path: string, limits: Pick<ImportLimits, 'maxZipRatio' | 'maxZipBytes'> = DEFAULT_IMPORT_LIMITS): Promise<ZipArchive> {
  let zip: yauzl.ZipFile;
  let source: ZipFileSource | undefined;
  try {
    source = await zipFileSource(path);
    zip = await yauzl.fromRandomAccessReaderPromise(source.reader, source.size, { lazyEntries: true, autoClose: false });
  } catch (error) {
    source?.reader.close(() => {});
    throw new LayerReadError(path, `not a readable zip file: ${errorMessage(error)}`);
  }
  try {
    const entries = await listEntries(zip);
    return archive(path, zip, entries, limits);
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

/**
 * Refuses entries whose declared expansion breaks the limits, before anything inflates them: for
 * a zip another library reads (exceljs reads an XLSX itself).
 */
export function checkDeclaredExpansion(path: string, entries: readonly yauzl.Entry[], limits: Pick<ImportLimits, 'maxZipRatio' | 'maxZipBytes'>): void {
  let total = 0;
  for (const entry of entries) {
    checkRatio(path, entry, entry.uncompressedSize, limits);
    total += entry.uncompressedSize;
    if (total > limits.maxZipBytes) throw tooMuchInflated(path, entry, total, limits);
  }
}

function archive(path: string, zip: yauzl.ZipFile, entries: yauzl.Entry[], limits: Pick<ImportLimits, 'maxZipRatio' | 'maxZipBytes'>): ZipArchive {
  let declared = 0;
  let inflated = 0;
  const stream = async (entry: yauzl.Entry): Promise<Readable> => {
    checkRatio(path, entry, entry.uncompressedSize, limits);
    declared += entry.uncompressedSize;
    if (declared > limits.maxZipBytes) throw tooMuchInflated(path, entry, declared, limits);
    const input = await zip.openReadStreamPromise(entry);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        inflated += chunk.length;
        if (inflated > limits.maxZipBytes) done(tooMuchInflated(path, entry, inflated, limits));
        else if (bytes > ZIP_RATIO_FLOOR_BYTES && bytes > entry.compressedSize * limits.maxZipRatio) done(ratioExceeded(path, entry, bytes, limits));
        else done(null, chunk);
      },
    });
    input.on('error', (error) => counter.destroy(new LayerReadError(path, `${entry.fileName}: ${error.message}`)));
    // The entry's stream goes when its reader is done with the counter, whichever way that ends.
    counter.on('close', () => input.destroy());
    return input.pipe(counter);
  };
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

function checkRatio(path: string, entry: yauzl.Entry, bytes: number, limits: Pick<ImportLimits, 'maxZipRatio'>): void {
  if (bytes > ZIP_RATIO_FLOOR_BYTES && bytes > Math.max(entry.compressedSize, 1) * limits.maxZipRatio) throw ratioExceeded(path, entry, bytes, limits);
}

function ratioExceeded(path: string, entry: yauzl.Entry, bytes: number, limits: Pick<ImportLimits, 'maxZipRatio'>): LayerReadError {
  const ratio = Math.round(bytes / Math.max(entry.compressedSize, 1));
  return limitExceeded(
    path,
    'maxZipRatio',
    limits.maxZipRatio,
    `${entry.fileName} expands ${entry.compressedSize.toLocaleString('en-US')} compressed bytes into ${bytes.toLocaleString('en-US')} (${ratio.toLocaleString('en-US')}:1, a zip bomb?)`,
  );
}

function tooMuchInflated(path: string, entry: yauzl.Entry, bytes: number, limits: Pick<ImportLimits, 'maxZipBytes'>): LayerReadError {
  return limitExceeded(path, 'maxZipBytes', limits.maxZipBytes, `inflating ${entry.fileName} brings what the zip expands to past ${bytes.toLocaleString('en-US')} bytes`);
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
