import type { Clock, FaultInjector, Logger } from '@landscreen/rpc';
import type { DiligenceDb } from './schema.js';

/** What the handlers share: the database, the clock every lease and ledger time is read from, and test fault points. */
export interface DiligenceContext {
  /** The service's tables only (every query in the "diligence" schema). */
  db: DiligenceDb;
  /** Leases, ledger times and UTC days come from this clock, never from the database's now(). */
  clock: Clock;
  logger: Logger;
  faults?: FaultInjector;
}
