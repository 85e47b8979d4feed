// The files that make a Shapefile, found beside a .shp or inside a .zip: the geometry (.shp),
// attributes (.dbf, optional), CRS (.prj, optional) and attribute encoding (.cpg, optional). The
// big two are opened as streams (a zip's entries too, through zip-archive and its limits: each
// is read from its offset, so both stream at once and nothing is unpacked); the small two are
// read whole.

import { createReadStream } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import type { Readable } from 'node:stream';
import type yauzl from 'yauzl';
import { LayerReadError } from '../errors.js';
import type { ImportLimits } from '../limits/import-limits.js';
import { openZipArchive } from '../zip/zip-archive.js';

export interface ShapefileParts {
  shp: Readable;
  dbf: Readable | null;
  prj: string | null;
  cpg: string | null;
  /** Bytes of .shp and .dbf together (uncompressed, for a zip). */
  totalBytes: number;
  close(): void;
}

/** A .prj or .cpg is a line of text; anything bigger is not one. */
const SMALL_FILE_LIMIT = 64 * 1024;
const READ_BUFFER = 1 << 20;

export async function openShapefileParts(path: string, limits: ImportLimits): Promise<ShapefileParts> {
  return extname(path).toLowerCase() === '.zip' ? openZipped(path, limits) : openPlain(path);
}

async function openPlain(path: string): Promise<ShapefileParts> {
  const stem = basename(path, extname(path)).toLowerCase();
  const siblings = new Map<string, string>();
  // Case-insensitive: archives from Windows tools mix FOO.SHP with foo.dbf.
  for (const name of await readdir(dirname(path))) {
    if (basename(name, extname(name)).toLowerCase() === stem) siblings.set(extname(name).toLowerCase(), join(dirname(path), name));
  }
  const dbfPath = siblings.get('.dbf');
  const shpSize = (await stat(path)).size;
  const dbfSize = dbfPath === undefined ? 0 : (await stat(dbfPath)).size;
  const small = async (extension: string): Promise<string | null> => {
    const file = siblings.get(extension);
    if (file === undefined) return null;
    if ((await stat(file)).size > SMALL_FILE_LIMIT) throw new LayerReadError(path, `${basename(file)} is too large to be a ${extension} file`);
    return readFile(file, 'utf8');
  };
  const prj = await small('.prj');
  const cpg = await small('.cpg');
  const shp = createReadStream(path, { highWaterMark: READ_BUFFER });
  const dbf = dbfPath === undefined ? null : createReadStream(dbfPath, { highWaterMark: READ_BUFFER });
  return {
    shp,
    dbf,
    prj,
    cpg,
    totalBytes: shpSize + dbfSize,
    close: () => {
      shp.destroy();
      dbf?.destroy();
    },
  };
}

async function openZipped(path: string, limits: ImportLimits): Promise<ShapefileParts> {
  const zip = await openZipArchive(path, limits);
  try {
    const shps = zip.entries.filter((entry) => extensionOf(entry.fileName) === '.shp');
    if (shps.length === 0) throw new LayerReadError(path, 'the zip holds no .shp file');
    if (shps.length > 1) {
      throw new LayerReadError(path, `the zip holds ${shps.length} shapefiles (${shps.map((e) => e.fileName).join(', ')}); zip one layer per file`);
    }
    const shpEntry = shps[0];
    const stem = stemOf(shpEntry.fileName);
    const sibling = (extension: string): yauzl.Entry | undefined =>
      zip.entries.find((entry) => extensionOf(entry.fileName) === extension && stemOf(entry.fileName) === stem);
    const dbfEntry = sibling('.dbf');
    const small = async (extension: string): Promise<string | null> => {
      const entry = sibling(extension);
      if (entry === undefined) return null;
      if (entry.uncompressedSize > SMALL_FILE_LIMIT) throw new LayerReadError(path, `${entry.fileName} is too large to be a ${extension} file`);
      return (await zip.read(entry, SMALL_FILE_LIMIT)).toString('utf8');
    };
    const prj = await small('.prj');
    const cpg = await small('.cpg');
    const shp = await zip.stream(shpEntry);
    const dbf = dbfEntry === undefined ? null : await zip.stream(dbfEntry);
    return {
      shp,
      dbf,
      prj,
      cpg,
      totalBytes: shpEntry.uncompressedSize + (dbfEntry?.uncompressedSize ?? 0),
      close: () => {
        shp.destroy();
        dbf?.destroy();
        zip.close();
      },
    };
  } catch (error) {
    zip.close();
    throw error;
  }
}

function extensionOf(name: string): string {
  return extname(name).toLowerCase();
}

function stemOf(name: string): string {
  return name.slice(0, name.length - extname(name).length).toLowerCase();
}
