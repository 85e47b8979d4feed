// Opening a publisher's SQLite file (GeoPackage) for reading only, without touching its folder.
// node-sqlite3-wasm's file system layer takes SQLite's locks by creating a `<file>.lock` directory
// beside the file, for readers too: two imports reading one file at once collide ("database is
// locked"), a reader killed mid-way leaves the file unreadable until someone deletes that
// directory, and a file on a read-only mount cannot be opened at all. The layer names the file it
// opened by the path it was given, so each reader opens it through a symbolic link in a private
// temporary folder: the lock directory is its own, and goes with the folder.

import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import sqlite from 'node-sqlite3-wasm';

export function openSqliteReadOnly(path: string): sqlite.Database {
  const folder = mkdtempSync(join(tmpdir(), 'landscreen-sqlite-'));
  const release = () => rmSync(folder, { recursive: true, force: true });
  try {
    const link = join(folder, basename(path));
    symlinkSync(resolve(path), link);
    const db = new sqlite.Database(link, { readOnly: true, fileMustExist: true });
    const close = db.close.bind(db);
    db.close = () => {
      try {
        close();
      } finally {
        release();
      }
    };
    return db;
  } catch (error) {
    release();
    throw error;
  }
}
