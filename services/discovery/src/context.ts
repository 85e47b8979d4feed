import type { Config } from '@landscreen/config';
import type { Clock, Logger } from '@landscreen/rpc';
import type { MarketIndexes } from './market-indexes.js';
import type { Ranker } from './ranking/ranker.js';
import type { DiscoveryDb } from './schema.js';

export interface DiscoveryContext {
  db: DiscoveryDb;
  clock: Clock;
  config: Config;
  logger: Logger;
  ranker: Ranker;
  /** A market's indexes, on the replica that holds it (else the request is sent there). */
  indexes: MarketIndexes;
  cursorSecret(): Promise<Buffer>;
}

/** The cursor signing key, read once (migrations made it). */
export function cursorSecretLoader(db: DiscoveryDb): () => Promise<Buffer> {
  let secret: Promise<Buffer> | undefined;
  return () =>
    (secret ??= db
      .selectFrom('signing_keys')
      .select('secret')
      .where('name', '=', 'cursor')
      .executeTakeFirstOrThrow()
      .then((row) => Buffer.from(row.secret)));
}
