/** The JetStream stream that carries run chunks to the batch workers (D35). */
export const RUNS_STREAM = 'RUNS';
export const RUNS_SUBJECTS = ['runs.>'];
/** One event per chunk, id `<run_id>.<chunk_no>` (the `Nats-Msg-Id`, so a re-publish is dropped). */
export const CHUNK_READY_SUBJECT = 'runs.chunk.ready';
/** Every runs worker process shares this durable consumer: each chunk event goes to one of them. */
export const RUNS_WORKER_DURABLE = 'runs-worker';

export interface ChunkReadyEvent {
  run_id: string;
  chunk_no: number;
}

export const chunkEventId = (runId: string, chunkNo: number) => `${runId}.${chunkNo}`;
