// The JetStream work queue of a prepare spread over worker processes: one event per chunk of the
// vintage, consumed by one durable shared by every `serve --prepare-worker`. Subject and durable
// are named after the database the job lives in, so deployments (or test runs) that share a NATS
// server never take each other's chunks.

import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { ProcessDatabase } from '@landscreen/db';

export const PREPARE_STREAM = 'PREPARE';
export const PREPARE_SUBJECTS = ['prepare.>'];

export interface PrepareChunkEvent {
  vintage_id: string;
  chunk: number;
}

/** Which database's jobs: its name and the discovery schema's oid, hashed. */
export async function databaseScope(db: ProcessDatabase): Promise<string> {
  const { rows } = await sql<{ name: string; schema: string }>`
    select current_database() as name, 'discovery'::regnamespace::oid::text as schema`.execute(db);
  return createHash('sha256').update(`${rows[0]!.name}\u0000${rows[0]!.schema}`).digest('hex').slice(0, 16);
}

export const chunkSubject = (scope: string) => `prepare.${scope}.chunk`;
export const workerDurable = (scope: string) => `prepare-worker-${scope}`;
/** The event id (`Nats-Msg-Id`): a publish repeated within the duplicate window is stored once. */
export const chunkEventId = (vintageId: string, chunk: number) => `${vintageId}.${chunk}`;
