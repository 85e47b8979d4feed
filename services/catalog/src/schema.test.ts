import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from 'kysely';
import { describe, expect, it } from 'vitest';
import { claimKey, storeAnswer } from './billing/idempotency.js';
import { chargeCredits, refundCredits } from './billing/ledger.js';
import { ledgerRefund } from './runs/run-billing.js';
import { insertRun } from './runs/insert-run.js';
import { readRun } from './runs/run-rows.js';
import { catalogDb, type CatalogDb, type CatalogTransaction } from './schema.js';

/** A database that only compiles queries. */
const compiling = () =>
  new Kysely<any>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (db) => new PostgresIntrospector(db),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });

describe('the catalog view', () => {
  it('puts every table the query builder names in the "catalog" schema', () => {
    const db = catalogDb(compiling());
    expect(db.selectFrom('runs').select(['id', 'status']).where('tenant_id', '=', 't').compile().sql).toBe(
      'select "id", "status" from "catalog"."runs" where "tenant_id" = $1',
    );
  });
});

// Typechecked, never run: what holds a row lock or must commit with the caller's other writes
// refuses the plain view (tsc fails on an unused @ts-expect-error if one ever accepts it).
export function transactionOnly(db: CatalogDb, trx: CatalogTransaction, now: Date): void {
  const account = { tenantId: 't', plan: undefined as never, signupMonth: '2026-11-01', signupGrantCredits: 0 };
  const charge = { operation: 'fetch' as const, credits: 1, locations: 1, fields: 1, rate: { limit: 1, remaining: 0 } };
  const refund = { tenantId: 't', credits: 1, operation: 'run' as const, refundOf: '1' };
  const claim = { tenantId: 't', key: 'k', operation: 'fetch', hash: 'h' };
  const run = { tenantId: 't', caller: undefined as never, fields: [], locations: [], creditsPerLocation: 1, chargeLedgerId: '1', createdAt: now, chunkSize: 1 };
  const stopped = { tenantId: 't', runId: 'r', chargeLedgerId: '1', credits: 1n, locations: 1, at: now };
  // @ts-expect-error a charge locks the month's running sum until commit
  void chargeCredits(db, account, charge, now);
  // @ts-expect-error a refund locks the refunded ledger row
  void refundCredits(db, refund, now);
  // @ts-expect-error a claimed key commits with its charge
  void claimKey(db, claim, now);
  // @ts-expect-error the stored answer commits with its charge
  void storeAnswer(db, 't', 'k', '1', new Uint8Array());
  // @ts-expect-error a run commits with its charge
  void insertRun(db, run);
  // @ts-expect-error a stopped run's refund commits with the stop
  void ledgerRefund(db, stopped);
  // @ts-expect-error `for update` needs the transaction that holds the lock
  void readRun(db, 't', 'r', true);
  void [chargeCredits(trx, account, charge, now), refundCredits(trx, refund, now), claimKey(trx, claim, now), storeAnswer(trx, 't', 'k', '1', new Uint8Array())];
  void [insertRun(trx, run), ledgerRefund(trx, stopped), readRun(trx, 't', 'r', true), readRun(db, 't', 'r')];
}
