// Asynchronous point-data runs (D35): the run RPCs, the chunk relay, the batch worker.
import type { ServiceDeps } from '@landscreen/rpc';
import { cancelRun } from '../handlers/cancel-run.js';
import { createRun } from '../handlers/create-run.js';
import { getRun } from '../handlers/get-run.js';
import { listRuns } from '../handlers/list-runs.js';
import { readRunResults } from '../handlers/read-run-results.js';
import type { CatalogImpl } from '../connect.js';
import type { CatalogDb } from '../schema.js';
import { createChunkRelay } from './chunk-relay.js';
import { ledgerRefund } from './run-billing.js';
import type { RunsContext } from './runs-context.js';

export { startRunsWorker, type RunsWorker, type RunsWorkerOptions } from './runs-worker.js';
export { ledgerRefund, type RunRefund } from './run-billing.js';
export { RUNS_STREAM, RUNS_SUBJECTS, RUNS_WORKER_DURABLE, CHUNK_READY_SUBJECT } from './subjects.js';
export { RUN_STATUSES, type RunStatus } from './run-rows.js';
export { RESULT_FORMATS, type ResultFormat } from './results-page.js';

type RunRpc = 'createRun' | 'listRuns' | 'getRun' | 'cancelRun' | 'readRunResults';

/**
 * The catalog service's part of runs: its RPC handlers and the chunk relay, which every replica
 * runs (they share the unpublished chunks through `for update skip locked`, as D27's relays do),
 * on the service's view of the database.
 */
export function catalogRuns(deps: ServiceDeps, db: CatalogDb): { handlers: Pick<CatalogImpl, RunRpc>; relay: ReturnType<typeof createChunkRelay> } {
  const context: RunsContext = { db, clock: deps.clock, faults: deps.faults, refund: ledgerRefund, chunkSize: deps.config.runs.chunkSize };
  const relay = createChunkRelay(
    { db, bus: deps.bus, logger: deps.logger.child({ component: 'run-chunk-relay' }) },
    { pollMs: deps.config.relay.pollMs, batchSize: deps.config.relay.batchSize },
  );
  return {
    handlers: {
      createRun: createRun(context),
      listRuns: listRuns(context),
      getRun: getRun(context),
      cancelRun: cancelRun(context),
      readRunResults: readRunResults(context),
    },
    relay,
  };
}
