import type { Config } from '@landscreen/config';
import type { Clock, Logger } from '@landscreen/rpc';
import type { Ranker } from './ranking/ranker.js';
import type { DiscoveryDb } from './schema.js';

export interface DiscoveryContext {
  db: DiscoveryDb;
  clock: Clock;
  config: Config;
  logger: Logger;
  ranker: Ranker;
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
