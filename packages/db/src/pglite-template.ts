import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { openDatabase, pgliteOf, type DatabaseHandle } from './open.js';
import { templateDataDir, templateTarball } from './pglite-template-files.js';

const require = createRequire(import.meta.url);

/**
 * A new PGlite database runs initdb (PostgreSQL's, compiled to WebAssembly, in an instance of its
 * own) and then every migration: about 9 CPU-seconds, most of an empty data directory's start-up
 * (docs/decisions.md, "Compiled JavaScript and start-up"). A template is a database that went
 * through both, kept twice: as a data directory, which a new data directory copies (a file copy,
 * then PGlite opens it as an existing database: about 1 CPU-second), and as PGlite's tarball of it
 * (dumpDataDir, 5 MB gzipped), which an in-memory database loads (about 1.6 CPU-seconds).
 *
 * Its name says what went into it: PGlite's release and a fingerprint the caller gives of its
 * migrations, so a changed migration or another PGlite makes a new template instead of reusing a
 * stale one.
 */
export function pgliteTemplatePath(dir: string, fingerprint: string): string {
  return path.join(dir, `pglite-${pgliteVersion()}-${fingerprint}`);
}

/** The template at `template`, written first (`migrate` run on a new database) when it does not exist yet. */
export async function ensurePGliteTemplate(template: string, migrate: (handle: DatabaseHandle) => Promise<void>): Promise<{ written: boolean }> {
  if (existsSync(template)) return { written: false };
  // Built aside and renamed when whole: a reader never sees half a template, and of two writers of
  // the same one, the second finds the first's in place and drops its own.
  const partial = `${template}.${process.pid}.partial`;
  rmSync(partial, { recursive: true, force: true });
  try {
    const handle = await openDatabase({ pgliteDir: templateDataDir(partial) });
    try {
      await migrate(handle);
      const tarball = await pgliteOf(handle)!.dumpDataDir('gzip');
      writeFileSync(templateTarball(partial), Buffer.from(await tarball.arrayBuffer()));
    } finally {
      await handle.close();
    }
    try {
      renameSync(partial, template);
    } catch (error) {
      if (!existsSync(template)) throw error;
    }
    return { written: true };
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
}

let version: string | undefined;
function pgliteVersion(): string {
  // Its package.json is not among its exports: read it beside the entry point.
  version ??= (JSON.parse(readFileSync(path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json'), 'utf8')) as { version: string }).version;
  return version;
}
