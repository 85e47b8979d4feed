import { sql } from 'kysely';
import { getPlan, isPlanId, PLAN_IDS, type Plan, type PlanId } from '@landscreen/field-catalog';
import type { CatalogDb } from '../schema.js';
import { utcMonth } from './month.js';
import { planOf, signupGrantCredits } from './quote.js';

/** A tenant as billing sees it. */
export interface TenantAccount {
  tenantId: string;
  plan: Plan;
  /** `YYYY-MM-01` of the month the sign-up grant is added to. */
  signupMonth: string;
  signupGrantCredits: number;
}

interface AccountRow {
  plan: string;
  signup_month: string;
  signup_grant_credits: number;
}

/**
 * The tenant's account, created on `free` the first time billing meets the tenant (D34: a new
 * tenant starts on free) with its sign-up grant fixed then. One round trip either way.
 */
export async function tenantAccount(db: CatalogDb, tenantId: string, now: Date): Promise<TenantAccount> {
  const free = planOf('free');
  const { rows } = await sql<AccountRow>`
    with created as (
      insert into catalog.tenant_accounts (tenant_id, plan, signup_month, signup_grant_credits, created_at)
      values (${tenantId}, 'free', ${utcMonth(now)}, ${signupGrantCredits(free)}, ${now})
      on conflict (tenant_id) do nothing
      returning plan, signup_month::text, signup_grant_credits
    )
    select * from created
    union all
    select plan, signup_month::text, signup_grant_credits from catalog.tenant_accounts where tenant_id = ${tenantId}
    limit 1`.execute(db);
  if (rows.length > 0) return toAccount(tenantId, rows[0]);
  // A concurrent first request created the row after this statement's snapshot was taken: it has
  // committed by now (the insert waited for it), so a fresh read sees it.
  const again = await sql<AccountRow>`
    select plan, signup_month::text, signup_grant_credits from catalog.tenant_accounts where tenant_id = ${tenantId}`.execute(db);
  return toAccount(tenantId, again.rows[0]);
}

function toAccount(tenantId: string, row: AccountRow): TenantAccount {
  return { tenantId, plan: planOf(row.plan), signupMonth: row.signup_month, signupGrantCredits: Number(row.signup_grant_credits) };
}

export class UnknownPlanIdError extends Error {
  constructor(readonly plan: string) {
    super(`no plan "${plan}" (plans: ${PLAN_IDS.join(', ')})`);
  }
}

/**
 * `landscreen plan set`: puts the tenant on `plan` from now on. The month's allowance follows the
 * plan at each request (an upgrade mid-month raises this month's balance at once); what the ledger
 * charged stays charged. A tenant billing has not met yet gets its account (and grant) here.
 */
export async function setPlan(db: CatalogDb, tenantId: string, plan: string, now: Date): Promise<Plan> {
  if (!isPlanId(plan)) throw new UnknownPlanIdError(plan);
  await tenantAccount(db, tenantId, now);
  await sql`update catalog.tenant_accounts set plan = ${plan}, plan_changed_at = ${now} where tenant_id = ${tenantId}`.execute(db);
  return getPlan(plan as PlanId)!;
}

/** Credits a tenant may spend in `month`: the plan's allowance, plus the grant in its sign-up month. */
export function monthAllowance(account: TenantAccount, month: string): number {
  return account.plan.credits_included + (month === account.signupMonth ? account.signupGrantCredits : 0);
}
