import { sql } from 'kysely';
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
  const { rows } = await sql<{ charged: number; id: string }>`
    with month as (
      insert into catalog.credit_months as m (tenant_id, month, charged)
      select ${account.tenantId}::uuid, ${month}::date, ${input.credits}::bigint where ${input.credits}::bigint <= ${allowance}::bigint
      on conflict (tenant_id, month) do update set charged = m.charged + excluded.charged
        where m.charged + excluded.charged <= ${allowance}::bigint
      returning charged
    ), entry as (
      insert into catalog.credit_ledger (tenant_id, operation, credits, locations, fields, request_id, idempotency_key, created_at)
      select ${account.tenantId}::uuid, ${input.operation}::text, ${input.credits}::bigint, ${input.locations}::integer, ${input.fields}::integer,
             ${input.requestId ?? null}::text, ${input.idempotencyKey ?? null}::text, ${now}::timestamptz
      from month
      returning id
    )
    select month.charged, entry.id::text as id from month, entry`.execute(trx);
  if (rows.length === 0) {
    const balance = await monthBalance(trx, account, now);
    throw insufficientCredits(input.credits, balance.remaining, input.rate);
  }
  return { ledgerId: rows[0].id, credits: input.credits, remaining: allowance - Number(rows[0].charged), month };
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
  const original = await sql<{ credits: number; tenant_id: string }>`
    select credits, tenant_id from catalog.credit_ledger where id = ${input.refundOf}::bigint for update`.execute(trx);
  const row = original.rows[0];
  if (!row || row.tenant_id !== input.tenantId) throw new Error(`no ledger row ${input.refundOf} of tenant ${input.tenantId} to refund`);
  const refunded = await sql<{ refunded: number }>`
    select coalesce(-sum(credits), 0)::bigint as refunded from catalog.credit_ledger where refund_of = ${input.refundOf}::bigint`.execute(trx);
  if (Number(refunded.rows[0].refunded) + input.credits > Number(row.credits)) {
    throw new Error(`refunding ${input.credits} more credits of ledger row ${input.refundOf} would exceed its ${row.credits}`);
  }
  const month = utcMonth(now);
  await sql`
    insert into catalog.credit_months as m (tenant_id, month, charged) values (${input.tenantId}, ${month}::date, ${-input.credits}::bigint)
    on conflict (tenant_id, month) do update set charged = m.charged + excluded.charged`.execute(trx);
  const { rows } = await sql<{ id: string }>`
    insert into catalog.credit_ledger (tenant_id, operation, credits, locations, fields, refund_of, reference, created_at)
    values (${input.tenantId}, ${input.operation}, ${-input.credits}, 0, 0, ${input.refundOf}::bigint, ${input.reference ?? null}, ${now})
    returning id::text as id`.execute(trx);
  return { ledgerId: rows[0].id };
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
  const { rows } = await sql<{ charged: number }>`
    select charged from catalog.credit_months where tenant_id = ${account.tenantId} and month = ${month}::date`.execute(db);
  const charged = rows.length > 0 ? Number(rows[0].charged) : 0;
  const allowance = monthAllowance(account, month);
  return { month, allowance, charged, remaining: allowance - charged };
}

/** The month's credits by operation, from the ledger itself (refunds net out in their operation). */
export async function creditsByOperation(db: CatalogDb, tenantId: string, now: Date): Promise<Record<string, number>> {
  const from = new Date(`${utcMonth(now)}T00:00:00Z`);
  const { rows } = await sql<{ operation: string; credits: number }>`
    select operation, sum(credits)::bigint as credits from catalog.credit_ledger
    where tenant_id = ${tenantId} and created_at >= ${from} and created_at < ${nextUtcMonth(now)}
    group by operation order by operation`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.operation, Number(row.credits)]));
}
