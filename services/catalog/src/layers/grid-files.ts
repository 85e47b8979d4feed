// Which files one import reads: `--file` given once or more. For a grid source each is a GeoTIFF
// or a folder of them (its .tif/.tiff files, not its subfolders), taken in name order — the order
// in which a later tile wins an overlap at equal resolution, whatever order they were named in.
// Other sources take their path as given (a folder may be a format of its own, as a FileGDB is).

import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { LayerImportError } from './layer-import-error.js';

const GEOTIFF_EXTENSION = /\.tiff?$/i;

export interface ImportFiles {
  /** Absolute paths, in name order. */
  files: string[];
  /** The version's default name: the folder's or the single file's. */
  name: string;
}

export async function importFiles(given: string | readonly string[], options: { gridTiles: boolean }): Promise<ImportFiles> {
  const paths = (typeof given === 'string' ? [given] : [...given]).map((file) => path.resolve(file));
  if (paths.length === 0) throw new LayerImportError('--file is required');
  if (!options.gridTiles) return { files: paths, name: path.basename(paths[0]) };
  const files: string[] = [];
  for (const entry of paths) {
    let isFolder: boolean;
    try {
      isFolder = (await stat(entry)).isDirectory();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new LayerImportError(`${entry}: no such file`);
      throw error;
    }
    if (!isFolder) {
      files.push(entry);
      continue;
    }
    const inside = (await readdir(entry, { withFileTypes: true })).filter((item) => item.isFile() && GEOTIFF_EXTENSION.test(item.name));
    if (inside.length === 0) throw new LayerImportError(`${entry}: the folder holds no GeoTIFF (.tif or .tiff) files`);
    files.push(...inside.map((item) => path.join(entry, item.name)));
  }
  const unique = [...new Set(files)].sort((a, b) => compareNames(path.basename(a), path.basename(b)) || compareNames(a, b));
  const name = paths.length === 1 ? path.basename(paths[0]) : `${path.basename(unique[0])} and ${unique.length - 1} more`;
  return { files: unique, name };
}

/** Code-point order, so the rule does not depend on the machine's locale. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The file_name recorded for a version of several files. */
export function fileNameOf(files: readonly string[]): string {
  if (files.length === 1) return path.basename(files[0]);
  const names = files.map((file) => path.basename(file));
  const listed = names.slice(0, 3).join(', ');
  return `${files.length} files: ${listed}${names.length > 3 ? ', …' : ''}`;
}
