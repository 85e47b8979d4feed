import type { FaultInjector, Logger } from '@landscreen/rpc';
import { columnsFingerprint, loadVintageIndex } from './column-store.js';
import type { IndexCache } from './index-cache.js';
import type { VintageIndex } from './vintage-index.js';
import type { DiscoveryDb } from '../schema.js';

/**
 * Loads a vintage's index. An index read from the database whole is written to the local cache
 * after; `reopened` is then handed the same index opened from that file (its columns read when
 * needed), to hold instead.
 */
export type IndexLoader = (vintageId: string, reopened: (index: VintageIndex) => void) => Promise<VintageIndex>;

export interface IndexLoaderOptions {
  db: DiscoveryDb;
  /** Local copies of indexes; absent: every load reads the database. */
  cache?: IndexCache;
  logger: Logger;
  faults?: FaultInjector;
}

/**
 * Loads a vintage's index from the local cache when it holds a copy made from exactly the columns
 * the database stores, else from the database (then caches it, in the background). Reading the
 * database's copy of a million-parcel vintage takes ~2 s; the local file, a few hundred ms.
 */
export function indexLoader({ db, cache, logger, faults }: IndexLoaderOptions): IndexLoader {
  return async (vintageId, reopened) => {
    const started = performance.now();
    const fingerprint = cache ? await columnsFingerprint(db, vintageId) : undefined;
    const cached = fingerprint === undefined ? undefined : await cache!.read(vintageId, fingerprint);
    if (cached) {
      logger.debug({ vintageId, rows: cached.size, ms: Math.round(performance.now() - started) }, 'vintage index read from the local cache');
      return cached;
    }
    // Tests arm this point to prove an answer came from the cache.
    await faults?.('discovery.index.load-from-database');
    const index = await loadVintageIndex(db, vintageId);
    logger.debug({ vintageId, rows: index.size, ms: Math.round(performance.now() - started) }, 'vintage index read from the database');
    if (fingerprint !== undefined) {
      void cache!
        .write(index, fingerprint)
        .then(async (written) => {
          const lazy = written ? await cache!.read(vintageId, fingerprint) : undefined;
          if (lazy) reopened(lazy);
        })
        .catch((error: unknown) => logger.warn({ err: error, vintageId }, 'could not reopen a cached vintage index'));
    }
    return index;
  };
}
