import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, stat, unlink, utimes } from 'node:fs/promises';
import path from 'node:path';
import { isUuid, type Logger } from '@landscreen/rpc';
import { encodeIndexFile, readIndexFile, UnusableIndexFile } from './index-file.js';
import type { VintageIndex } from './vintage-index.js';

/** A file of a vintage this database does not know is kept this long after its last use. */
const UNKNOWN_VINTAGE_MAX_AGE_MS = 7 * 24 * 3600 * 1000;
/** A temporary file this old is left over from a writer that died. */
const ABANDONED_TEMP_AGE_MS = 3600 * 1000;
const SUFFIX = '.index';

/**
 * Vintage indexes kept as local files (index-file.ts), one per vintage: vintages are immutable, so
 * a file made once serves every later start of this replica. Files are written whole or not at all
 * (a temporary file renamed into place), so replicas may share the directory; a file that is
 * damaged, of another format or made from other stored columns is deleted and rebuilt.
 */
export class IndexCache {
  private readonly writes = new Set<Promise<void>>();

  constructor(
    readonly dir: string,
    private readonly logger: Logger,
  ) {}

  pathOf(vintageId: string): string {
    // The id names a file: only a uuid may.
    if (!isUuid(vintageId)) throw new Error(`not a vintage id: ${vintageId}`);
    return path.join(this.dir, `${vintageId}${SUFFIX}`);
  }

  /**
   * The cached index, or undefined when there is none that can be trusted. Its columns are read
   * from the file later: one found damaged then has the file deleted too (the index fails that
   * read and is rebuilt from the database).
   */
  async read(vintageId: string, fingerprint: string): Promise<VintageIndex | undefined> {
    const file = this.pathOf(vintageId);
    try {
      const index = await readIndexFile(file, vintageId, fingerprint, (reason) => {
        this.logger.warn({ vintageId, file, reason, damaged: true }, 'a cached vintage index proved damaged; deleting it');
        void unlink(file).catch(() => undefined);
      });
      // Its modification time is its last use, for eviction: the file system's clock, which
      // eviction compares it with (not the service's injected one).
      const now = new Date();
      await utimes(file, now, now).catch(() => undefined);
      return index;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      this.logger.warn({ vintageId, file, reason: (error as Error).message, damaged: error instanceof UnusableIndexFile }, 'ignoring a cached vintage index');
      await unlink(file).catch(() => undefined);
      return undefined;
    }
  }

  /**
   * Writes the index in the background; failures are logged, never thrown (the cache is optional).
   * Resolves true once the file is in place.
   */
  write(index: VintageIndex, fingerprint: string): Promise<boolean> {
    const writing = this.writeFile(index, fingerprint).then(
      () => true,
      (error: unknown) => {
        this.logger.warn({ err: error, vintageId: index.vintageId }, 'could not cache a vintage index');
        return false;
      },
    );
    const tracked = writing.then(() => undefined).finally(() => this.writes.delete(tracked));
    this.writes.add(tracked);
    return writing;
  }

  /** Waits for the writes under way (at stop, so that a restart finds them). */
  async flush(): Promise<void> {
    while (this.writes.size > 0) await Promise.all(this.writes);
  }

  /**
   * Deletes what is no longer worth keeping: files of vintages this database has but no market
   * serves (superseded), files of vintages it does not know that were not used for a week (another
   * database's, or deleted), and temporary files a dead writer left.
   */
  async evict(current: ReadonlySet<string>, known: ReadonlySet<string>): Promise<string[]> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    const evicted: string[] = [];
    const now = Date.now();
    for (const name of names) {
      const file = path.join(this.dir, name);
      const vintageId = name.endsWith(SUFFIX) ? name.slice(0, -SUFFIX.length) : undefined;
      let remove: boolean;
      if (vintageId && isUuid(vintageId)) {
        if (current.has(vintageId)) continue;
        remove = known.has(vintageId) || now - (await mtimeOf(file)) > UNKNOWN_VINTAGE_MAX_AGE_MS;
      } else {
        remove = name.endsWith('.tmp') && now - (await mtimeOf(file)) > ABANDONED_TEMP_AGE_MS;
      }
      if (remove && (await unlink(file).then(() => true, () => false))) evicted.push(name);
    }
    return evicted;
  }

  private async writeFile(index: VintageIndex, fingerprint: string): Promise<void> {
    const target = this.pathOf(index.vintageId);
    await mkdir(this.dir, { recursive: true });
    const temporary = `${target}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
    const file = await open(temporary, 'w');
    try {
      for await (const chunk of encodeIndexFile(index, fingerprint)) {
        for (let written = 0; written < chunk.byteLength; ) written += (await file.write(chunk, written, chunk.byteLength - written)).bytesWritten;
      }
      await file.datasync();
      await file.close();
      await rename(temporary, target);
    } catch (error) {
      await file.close().catch(() => undefined);
      await unlink(temporary).catch(() => undefined);
      throw error;
    }
  }
}

const mtimeOf = (file: string) => stat(file).then((stats) => stats.mtimeMs, () => Date.now());
