import type { CatalogDb, CatalogTransaction } from '../schema.js';
import { monthAllowance, type TenantAccount } from './accounts.js';
import { insufficientCredits } from './errors.js';
import { nextUtcMonth, utcMonth } from './month.js';

/** What billing sells; the ledger's `operation` column and GET /v1/usage's keys. */
export type Operation = 'fetch' | 'run' | 'geocode' | 'resolve';

export interface ChargeInput {
  operation: Operation;
  credits: number;
  locations: number;
  fields: number;
  requestId?: string;
  idempotencyKey?: string;
  /** The request's rpm slot, for the headers of a 402 (D34). */
  rate: { limit: number; remaining: number };
}

export interface Charge {
  /** The ledger row (bigint as a decimal string): what a refund names. */
  ledgerId: string;
  credits: number;
  /** The month's balance after this charge. */
  remaining: number;
  month: string;
}

/**
 * Charges `input.credits` to the tenant's current UTC month inside `trx`, or throws 402 with
 * nothing written. One statement: the month's running sum grows only if it stays within the
 * allowance (the row lock serialises a tenant's concurrent charges, and PostgreSQL re-checks the
 * `where` on the locked row), and the ledger row is inserted only if it did. The row lock is
 * held until `trx` commits, so what the caller writes after the charge commits with it.
 */
export async function chargeCredits(trx: CatalogTransaction, account: TenantAccount, input: ChargeInput, now: Date): Promise<Charge> {
  const month = utcMonth(now);
  const allowance = monthAllowance(account, month);
  const charged = await trx
    .with('month', (db) =>
      db
        .insertInto('credit_months')
        .columns(['tenant_id', 'month', 'charged'])
        .expression(
          db
            .selectNoFrom((eb) => [eb.cast<string>(eb.val(account.tenantId), 'uuid').as('tenant_id'), eb.cast<Date>(eb.val(month), 'date').as('month'), eb.cast<number>(eb.val(input.credits), 'bigint').as('charged')])
            .where((eb) => eb(eb.cast<number>(eb.val(input.credits), 'bigint'), '<=', eb.cast<number>(eb.val(allowance), 'bigint'))),
        )
        .onConflict((oc) =>
          oc
            .columns(['tenant_id', 'month'])
            .doUpdateSet((eb) => ({ charged: eb(eb.ref('credit_months.charged'), '+', eb.ref('excluded.charged')) }))
            .where((eb) => eb(eb(eb.ref('credit_months.charged'), '+', eb.ref('excluded.charged')), '<=', eb.cast<number>(eb.val(allowance), 'bigint'))),
        )
        .returning('charged'),
    )
    .with('entry', (db) =>
      db
        .insertInto('credit_ledger')
        .columns(['tenant_id', 'operation', 'credits', 'locations', 'fields', 'request_id', 'idempotency_key', 'created_at'])
        .expression((eb) =>
          eb.selectFrom('month').select([
            eb.cast<string>(eb.val(account.tenantId), 'uuid').as('tenant_id'),
            eb.cast<string>(eb.val(input.operation), 'text').as('operation'),
            eb.cast<number>(eb.val(input.credits), 'bigint').as('credits'),
            eb.cast<number>(eb.val(input.locations), 'integer').as('locations'),
            eb.cast<number>(eb.val(input.fields), 'integer').as('fields'),
            eb.cast<string | null>(eb.val(input.requestId ?? null), 'text').as('request_id'),
            eb.cast<string | null>(eb.val(input.idempotencyKey ?? null), 'text').as('idempotency_key'),
            eb.cast<Date>(eb.val(now), 'timestamptz').as('created_at'),
          ]),
        )
        .returning('id'),
    )
    .selectFrom(['month', 'entry'])
    .select((eb) => ['month.charged', eb.cast<string>('entry.id', 'text').as('id')])
    .executeTakeFirst();
  if (!charged) {
    const balance = await monthBalance(trx, account, now);
    throw insufficientCredits(input.credits, balance.remaining, input.rate);
  }
  return { ledgerId: charged.id, credits: input.credits, remaining: allowance - Number(charged.charged), month };
}

export interface RefundInput {
  tenantId: string;
  /** Credits given back (positive); written as a row of minus this. */
  credits: number;
  operation: Operation;
  /** The ledger row refunded (Charge.ledgerId); refunds of one row never exceed its credits. */
  refundOf: string;
  /** What the refund is for, e.g. `run:<id> cancelled, 840 locations unprocessed`. */
  reference?: string;
}

/**
 * Gives credits back inside `trx` (e.g. a cancelled run's unprocessed locations): a ledger row of
 * negative credits naming the row it refunds, and the current month's running sum lowered (the
 * refund counts in the month it happens, like every ledger row). The refunded row is locked
 * first, so concurrent refunds of one charge serialise, and refunding more than was charged throws.
 */
export async function refundCredits(trx: CatalogTransaction, input: RefundInput, now: Date): Promise<{ ledgerId: string }> {
  if (!Number.isSafeInteger(input.credits) || input.credits <= 0) throw new RangeError(`refund credits must be a positive integer, got ${input.credits}`);
  const row = await trx
    .selectFrom('credit_ledger')
    .select(['credits', 'tenant_id'])
    .where('id', '=', Number(input.refundOf))
    .forUpdate()
    .executeTakeFirst();
  if (!row || row.tenant_id !== input.tenantId) throw new Error(`no ledger row ${input.refundOf} of tenant ${input.tenantId} to refund`);
  const { refunded } = await trx
    .selectFrom('credit_ledger')
    .select((eb) => eb.cast<number>(eb.fn.coalesce(eb.neg(eb.fn.sum<number>('credits')), eb.lit(0)), 'bigint').as('refunded'))
    .where('refund_of', '=', Number(input.refundOf))
    .executeTakeFirstOrThrow();
  if (Number(refunded) + input.credits > Number(row.credits)) {
    throw new Error(`refunding ${input.credits} more credits of ledger row ${input.refundOf} would exceed its ${row.credits}`);
  }
  const month = utcMonth(now);
  await trx
    .insertInto('credit_months')
    .values({ tenant_id: input.tenantId, month, charged: -input.credits })
    .onConflict((oc) => oc.columns(['tenant_id', 'month']).doUpdateSet((eb) => ({ charged: eb(eb.ref('credit_months.charged'), '+', eb.ref('excluded.charged')) })))
    .execute();
  const entry = await trx
    .insertInto('credit_ledger')
    .values({
      tenant_id: input.tenantId,
      operation: input.operation,
      credits: -input.credits,
      locations: 0,
      fields: 0,
      refund_of: Number(input.refundOf),
      reference: input.reference ?? null,
      created_at: now,
    })
    .returning((eb) => eb.cast<string>('id', 'text').as('id'))
    .executeTakeFirstOrThrow();
  return { ledgerId: entry.id };
}

export interface MonthBalance {
  month: string;
  allowance: number;
  charged: number;
  remaining: number;
}

/** The tenant's balance of the UTC month of `now`: allowance minus what the ledger charged in it. */
export async function monthBalance(db: CatalogDb, account: TenantAccount, now: Date): Promise<MonthBalance> {
  const month = utcMonth(now);
  const row = await db
    .selectFrom('credit_months')
    .select('charged')
    .where('tenant_id', '=', account.tenantId)
    .where('month', '=', (eb) => eb.cast<Date>(eb.val(month), 'date'))
    .executeTakeFirst();
  const charged = row ? Number(row.charged) : 0;
  const allowance = monthAllowance(account, month);
  return { month, allowance, charged, remaining: allowance - charged };
}

/** The month's credits by operation, from the ledger itself (refunds net out in their operation). */
export async function creditsByOperation(db: CatalogDb, tenantId: string, now: Date): Promise<Record<string, number>> {
  const from = new Date(`${utcMonth(now)}T00:00:00Z`);
  const rows = await db
    .selectFrom('credit_ledger')
    .select((eb) => ['operation', eb.cast<number>(eb.fn.sum('credits'), 'bigint').as('credits')])
    .where('tenant_id', '=', tenantId)
    .where('created_at', '>=', from)
    .where('created_at', '<', nextUtcMonth(now))
    .groupBy('operation')
    .orderBy('operation')
    .execute();
  return Object.fromEntries(rows.map((row) => [row.operation, Number(row.credits)]));
}
