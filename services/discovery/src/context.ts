import type { Kysely } from 'kysely';
import type { Config } from '@landscreen/config';
import type { Clock, Logger } from '@landscreen/rpc';
import type { Ranker } from './ranking/ranker.js';
import { discoveryDb } from './schema.js';

export interface DiscoveryContext {
  db: Kysely<any>;
  clock: Clock;
  config: Config;
  logger: Logger;
  ranker: Ranker;
  cursorSecret(): Promise<Buffer>;
}

/** The cursor signing key, read once (migrations made it). */
export function cursorSecretLoader(db: Kysely<any>): () => Promise<Buffer> {
  let secret: Promise<Buffer> | undefined;
  return () =>
    (secret ??= discoveryDb(db)
      .selectFrom('signing_keys')
      .select('secret')
      .where('name', '=', 'cursor')
      .executeTakeFirstOrThrow()
      .then((row) => Buffer.from(row.secret)));
}
