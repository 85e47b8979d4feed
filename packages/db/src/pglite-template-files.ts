import { constants, cpSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';

// What a PGlite template is on disk, apart from how one is written (pglite-template.ts), so that
// opening a database from one (open.ts) needs nothing of the writer, which itself opens a database.

/** The template's data directory, and its tarball. */
export const templateDataDir = (template: string) => path.join(template, 'pgdata');
export const templateTarball = (template: string) => path.join(template, 'pgdata.tar.gz');

/**
 * Copies the template's data directory to `dataDir` (which holds no database yet): aside, then
 * renamed into place, so a copy that fails (a template this user may not read) leaves nothing.
 */
export function copyTemplateDataDir(template: string, dataDir: string): void {
  const partial = `${dataDir}.${process.pid}.partial`;
  mkdirSync(path.dirname(dataDir), { recursive: true });
  try {
    // A copy-on-write clone where the file system has them (btrfs, XFS, APFS), else a plain copy.
    cpSync(templateDataDir(template), partial, { recursive: true, mode: constants.COPYFILE_FICLONE });
    rmSync(dataDir, { recursive: true, force: true }); // an empty directory made before
    renameSync(partial, dataDir);
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}
