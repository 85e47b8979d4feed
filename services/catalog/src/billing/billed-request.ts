import { creditsCharged } from '@landscreen/telemetry';
import type { Plan } from '@landscreen/field-catalog';
import type { Clock, FaultInjector } from '@landscreen/rpc';
import type { CatalogDb, CatalogTransaction } from '../schema.js';
import type { TenantAccount } from './accounts.js';
import { insufficientCredits } from './errors.js';
import { claimKey, storeAnswer, storedAnswer } from './idempotency.js';
import { chargeCredits, monthBalance, type Charge, type Operation } from './ledger.js';
import { startRequest } from './request-start.js';

export interface BillingContext {
  db: CatalogDb;
  clock: Clock;
  /** Test-only failure points after the charge (BILLING_FAULTS): each must leave nothing charged. */
  faults?: FaultInjector;
}

/**
 * Where a test may make a billed request fail after its charge: between the charge and `work`,
 * after `work`, and after the answer is stored for replays, just before the commit. A failure at
 * any of them rolls the charge back with everything else.
 */
export const BILLING_FAULTS = ['billing.after_charge', 'billing.after_work', 'billing.before_commit'] as const;

/** What one request costs, priced on the tenant's plan. */
export interface Price {
  credits: number;
  locations: number;
  fields: number;
}

/** How a request's answer is kept for Idempotency-Key replays. */
export interface AnswerCodec<T> {
  encode(answer: T): Uint8Array;
  decode(bytes: Uint8Array): T;
}

export interface BilledRequest<T, P = void> {
  tenantId: string;
  operation: Operation;
  /** The request's price on the tenant's plan (called once the plan is known). */
  price(plan: Plan): Price;
  /** The gateway's request id, kept on the ledger row. */
  requestId?: string;
  /** The Idempotency-Key header and the hash of the request it is bound to (requestHash()). */
  idempotency?: { key: string; requestHash: string };
  /**
   * Work done before the charge, outside any transaction (e.g. evaluating the points): it runs
   * only when the request is no replay and the balance covered it a moment ago, and must be free
   * of side effects, since the charge may still fail (402) after it. It is where an answer is
   * bounded: one that would exceed its documented size is refused here, before any charge (413).
   */
  prepare?(plan: Plan, start: RequestStanding): Promise<P>;
  /**
   * Runs inside the charge's transaction, after the ledger row: what it writes commits with the
   * charge or not at all (e.g. a run and its chunks). Its answer is what the caller gets, and the
   * stored answer of a keyed request. Nothing is visible to anyone before the commit.
   */
  work(trx: CatalogTransaction, charge: Charge, prepared: P, plan: Plan): Promise<T>;
  codec: AnswerCodec<T>;
}

/** Where the tenant stands as a request starts: what a refusal's billing headers say. */
export interface RequestStanding {
  creditsRemaining: number;
  rate: { limit: number; remaining: number };
}

/** What the gateway sends as headers on every billed answer. */
export interface BillingStatus {
  creditsCharged: number;
  creditsRemaining: number;
  rateLimitLimit: number;
  rateLimitRemaining: number;
  /** True when the answer is an Idempotency-Key replay (nothing charged). */
  replayed: boolean;
}

export interface BilledAnswer<T> {
  answer: T;
  billing: BillingStatus;
  /** Absent on a replay. */
  charge?: Charge;
  plan: Plan;
}

/**
 * One billed request, in this order: the plan's rpm (429), an Idempotency-Key replay (the stored
 * answer, nothing charged; another body 422), a balance pre-check (402 before any work),
 * `prepare` (the answer computed and bounded: 413 before any charge), then one transaction: claim
 * the key, charge atomically with the balance check (402, nothing written), `work` (the answer
 * built), store the answer for replays, commit. The answer is returned only after the commit, so
 * values are never handed out for a charge that did not happen; and anything that fails after
 * the charge fails inside its transaction, so no charge stands for an answer that was not given
 * (D39). Nothing fallible follows the commit: the caller only hands the built answer on.
 */
export async function billedRequest<T, P = void>(context: BillingContext, request: BilledRequest<T, P>): Promise<BilledAnswer<T>> {
  const { db, clock } = context;
  const { account, rate, remaining } = await startRequest(db, request.tenantId, clock.now());
  const { plan } = account;
  const price = request.price(plan);
  const key = request.idempotency;

  if (key) {
    const stored = await storedAnswer(db, request.tenantId, key.key, key.requestHash, clock.now());
    if (stored.kind === 'replay') return replay(context, account, request.codec.decode(stored.response), rate);
  }
  if (price.credits > remaining) throw insufficientCredits(price.credits, remaining, rate);
  const prepared = (await request.prepare?.(plan, { creditsRemaining: remaining, rate })) as P;

  const outcome = await db.transaction().execute(async (trx) => {
    if (key) {
      const claimed = await claimKey(trx, { tenantId: request.tenantId, key: key.key, operation: request.operation, hash: key.requestHash }, clock.now());
      if (claimed.kind === 'replay') return { replayed: claimed.response } as const;
    }
    const charge = await chargeCredits(
      trx,
      account,
      { operation: request.operation, ...price, requestId: request.requestId, idempotencyKey: key?.key, rate },
      clock.now(),
    );
    await context.faults?.('billing.after_charge');
    const answer = await request.work(trx, charge, prepared, plan);
    await context.faults?.('billing.after_work');
    if (key) await storeAnswer(trx, request.tenantId, key.key, charge.ledgerId, request.codec.encode(answer));
    await context.faults?.('billing.before_commit');
    return { answer, charge } as const;
  });
  if ('replayed' in outcome) return replay(context, account, request.codec.decode(outcome.replayed!), rate);
  // Counted once the charge has committed: a rolled-back charge never shows.
  creditsCharged.inc({ kind: request.operation }, outcome.charge.credits);
  return {
    answer: outcome.answer,
    charge: outcome.charge,
    plan,
    billing: {
      creditsCharged: outcome.charge.credits,
      creditsRemaining: outcome.charge.remaining,
      rateLimitLimit: rate.limit,
      rateLimitRemaining: rate.remaining,
      replayed: false,
    },
  };
}

async function replay<T>(context: BillingContext, account: TenantAccount, answer: T, rate: { limit: number; remaining: number }): Promise<BilledAnswer<T>> {
  const balance = await monthBalance(context.db, account, context.clock.now());
  return {
    answer,
    plan: account.plan,
    billing: { creditsCharged: 0, creditsRemaining: balance.remaining, rateLimitLimit: rate.limit, rateLimitRemaining: rate.remaining, replayed: true },
  };
}

/**
 * A request that is rate-limited like a billed one but charges nothing (dry_run quotes): the rpm
 * slot and the balance it would be checked against.
 */
export async function unbilledRequest(context: BillingContext, tenantId: string): Promise<{ plan: Plan; billing: BillingStatus }> {
  const { account, rate, remaining } = await startRequest(context.db, tenantId, context.clock.now());
  return {
    plan: account.plan,
    billing: { creditsCharged: 0, creditsRemaining: remaining, rateLimitLimit: rate.limit, rateLimitRemaining: rate.remaining, replayed: false },
  };
}
