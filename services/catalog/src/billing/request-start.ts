import { sql } from 'kysely';
import { PLANS } from '@landscreen/field-catalog';
import type { CatalogDb } from '../schema.js';
import { monthAllowance, type TenantAccount } from './accounts.js';
import { rateLimited } from './errors.js';
import { utcMonth } from './month.js';
import { planOf, signupGrantCredits } from './quote.js';

const MINUTE_MS = 60_000;

export interface RateSlot {
  limit: number;
  /** Billed requests left in this minute after this one. */
  remaining: number;
}

/**
 * The plan's rpm as SQL, from the price list (constants of this build, not input). Raw: a CASE of
 * literals, so the integers keep their type where parameters would come in untyped and the
 * statement's text is the same for every tenant.
 */
const RPM_OF_PLAN = sql.raw<number>(`case "plan" ${PLANS.map((plan) => `when '${plan.id}' then ${plan.rpm}`).join(' ')} end`);

export interface RequestStart {
  account: TenantAccount;
  rate: RateSlot;
  /** The UTC month's balance before this request. */
  remaining: number;
}

/**
 * The first step of every billed request, in one round trip: the tenant's account (created on
 * free the first time, as tenantAccount does), one slot of its plan's rpm in the current minute,
 * and the month's balance so far. rpm: fixed one-minute windows on the service's clock, counted
 * in PostgreSQL so every replica shares them; the conditional upsert never counts past the limit,
 * and a full window is 429 with the seconds to the next minute. Its own statement, not the
 * charge's transaction: a request refused later (402, a replay) still counted as a request.
 */
export async function startRequest(db: CatalogDb, tenantId: string, now: Date): Promise<RequestStart> {
  const month = utcMonth(now);
  const windowStart = new Date(Math.floor(now.getTime() / MINUTE_MS) * MINUTE_MS);
  const statement = db
    .with('created', (db) =>
      db
        .insertInto('tenant_accounts')
        .values({ tenant_id: tenantId, plan: 'free', signup_month: month, signup_grant_credits: signupGrantCredits(planOf('free')), created_at: now })
        .onConflict((oc) => oc.column('tenant_id').doNothing())
        .returning(['plan', 'signup_month', 'signup_grant_credits']),
    )
    .with('account', (db) =>
      db
        .selectFrom('created')
        .selectAll()
        .unionAll(db.selectFrom('tenant_accounts').select(['plan', 'signup_month', 'signup_grant_credits']).where('tenant_id', '=', tenantId))
        .limit(1),
    )
    .with('slot', (db) =>
      db
        .insertInto('rate_windows')
        .columns(['tenant_id', 'window_start', 'requests'])
        .expression((eb) => eb.selectFrom('account').select([eb.cast<string>(eb.val(tenantId), 'uuid').as('tenant_id'), eb.cast<Date>(eb.val(windowStart), 'timestamptz').as('window_start'), eb.lit(1).as('requests')]))
        .onConflict((oc) =>
          oc
            .columns(['tenant_id', 'window_start'])
            .doUpdateSet((eb) => ({ requests: eb(eb.ref('rate_windows.requests'), '+', eb.lit(1)) }))
            .where((eb) => eb(eb.ref('rate_windows.requests'), '<', eb.selectFrom('account').select(RPM_OF_PLAN.as('rpm')))),
        )
        .returning('requests'),
    )
    .selectFrom('account')
    .select((eb) => [
      'account.plan',
      eb.cast<string>('account.signup_month', 'text').as('signup_month'),
      'account.signup_grant_credits',
      eb.selectFrom('slot').select('slot.requests').as('requests'),
      eb.selectFrom('credit_months').select('charged').where('tenant_id', '=', tenantId).where('month', '=', eb.cast<Date>(eb.val(month), 'date')).as('charged'),
    ]);
  // A concurrent first request created the account after this statement's snapshot: it has
  // committed by now (the insert waited for it), so the same statement again sees it.
  const row = (await statement.executeTakeFirst()) ?? (await statement.executeTakeFirstOrThrow());
  const plan = planOf(row.plan);
  const account: TenantAccount = { tenantId, plan, signupMonth: row.signup_month, signupGrantCredits: Number(row.signup_grant_credits) };
  const remaining = monthAllowance(account, month) - Number(row.charged ?? 0);
  if (row.requests === null) {
    throw rateLimited(plan.rpm, Math.max(1, Math.ceil((windowStart.getTime() + MINUTE_MS - now.getTime()) / 1000)), remaining);
  }
  const requests = Number(row.requests);
  // The first request of a minute clears the tenant's older windows (nothing reads them again).
  if (requests === 1) {
    await db.deleteFrom('rate_windows').where('tenant_id', '=', tenantId).where('window_start', '<', windowStart).execute();
  }
  return {
    account,
    rate: { limit: plan.rpm, remaining: Math.max(0, plan.rpm - requests) },
    remaining,
  };
}
