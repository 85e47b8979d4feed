import type { Clock, FaultInjector } from '@landscreen/rpc';
import type { CatalogDb } from '../schema.js';
import type { RunRefund } from './run-billing.js';

/** What the run RPCs share. */
export interface RunsContext {
  db: CatalogDb;
  /** Creation, lease and finish times come from this clock. */
  clock: Clock;
  /** Test-only failure points (billing's, as a run is a billed request). */
  faults?: FaultInjector;
  refund: RunRefund;
  /** Locations per chunk: the unit a worker leases, evaluates and writes at once. */
  chunkSize: number;
}
