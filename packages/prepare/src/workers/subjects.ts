// The JetStream work queue of a prepare spread over worker processes: one event per chunk of the
// vintage, consumed by one durable shared by every `serve --prepare-worker`. The bus puts these
// names under the deployment's scope (@landscreen/events' scope.ts), so deployments or test runs
// that share a NATS server never take each other's chunks.

export const PREPARE_STREAM = 'PREPARE';
export const PREPARE_SUBJECTS = ['prepare.>'];
export const PREPARE_CHUNK_SUBJECT = 'prepare.chunk';
export const PREPARE_WORKER_DURABLE = 'prepare-worker';

export interface PrepareChunkEvent {
  vintage_id: string;
  chunk: number;
}

/** The event id (`Nats-Msg-Id`): a publish repeated within the duplicate window is stored once. */
export const chunkEventId = (vintageId: string, chunk: number) => `${vintageId}.${chunk}`;
