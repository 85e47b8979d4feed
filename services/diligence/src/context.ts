import type { Kysely } from 'kysely';
import type { Clock, FaultInjector, Logger } from '@landscreen/rpc';

/** What the handlers share: the database, the clock every lease and ledger time is read from, and test fault points. */
export interface DiligenceContext {
  db: Kysely<any>;
  /** Leases, ledger times and UTC days come from this clock, never from the database's now(). */
  clock: Clock;
  logger: Logger;
  faults?: FaultInjector;
}
