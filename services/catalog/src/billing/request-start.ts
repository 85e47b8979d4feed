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

/** The plan's rpm as SQL, from the price list (constants of this build, not input). */
const RPM_OF_PLAN = sql.raw(`case plan ${PLANS.map((plan) => `when '${plan.id}' then ${plan.rpm}`).join(' ')} end`);

export interface RequestStart {
  account: TenantAccount;
  rate: RateSlot;
  /** The UTC month's balance before this request. */
  remaining: number;
}

interface StartRow {
  plan: string;
  signup_month: string;
  signup_grant_credits: number;
  requests: number | null;
  charged: number | null;
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
  const statement = sql<StartRow>`
    with created as (
      insert into catalog.tenant_accounts (tenant_id, plan, signup_month, signup_grant_credits, created_at)
      values (${tenantId}, 'free', ${month}, ${signupGrantCredits(planOf('free'))}, ${now})
      on conflict (tenant_id) do nothing
      returning plan, signup_month, signup_grant_credits
    ), account as (
      select * from created
      union all
      select plan, signup_month, signup_grant_credits from catalog.tenant_accounts where tenant_id = ${tenantId}
      limit 1
    ), slot as (
      insert into catalog.rate_windows as w (tenant_id, window_start, requests)
      select ${tenantId}::uuid, ${windowStart}::timestamptz, 1 from account
      on conflict (tenant_id, window_start) do update set requests = w.requests + 1
        where w.requests < (select ${RPM_OF_PLAN} from account)
      returning requests
    )
    select a.plan, a.signup_month::text as signup_month, a.signup_grant_credits,
           (select requests from slot) as requests,
           (select charged from catalog.credit_months where tenant_id = ${tenantId} and month = ${month}::date) as charged
    from account a`;
  let { rows } = await statement.execute(db);
  // A concurrent first request created the account after this statement's snapshot: it has
  // committed by now (the insert waited for it), so the same statement again sees it.
  if (rows.length === 0) rows = (await statement.execute(db)).rows;
  const row = rows[0];
  const plan = planOf(row.plan);
  const account: TenantAccount = { tenantId, plan, signupMonth: row.signup_month, signupGrantCredits: Number(row.signup_grant_credits) };
  const remaining = monthAllowance(account, month) - Number(row.charged ?? 0);
  if (row.requests === null) {
    throw rateLimited(plan.rpm, Math.max(1, Math.ceil((windowStart.getTime() + MINUTE_MS - now.getTime()) / 1000)), remaining);
  }
  const requests = Number(row.requests);
  // The first request of a minute clears the tenant's older windows (nothing reads them again).
  if (requests === 1) {
    await sql`delete from catalog.rate_windows where tenant_id = ${tenantId} and window_start < ${windowStart}`.execute(db);
  }
  return {
    account,
    rate: { limit: plan.rpm, remaining: Math.max(0, plan.rpm - requests) },
    remaining,
  };
}
