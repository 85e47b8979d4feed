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
  /** Read as text: `YYYY-MM-01`. */
  signup_month: string;
  signup_grant_credits: number;
}

/**
 * The tenant's account, created on `free` the first time billing meets the tenant (D34: a new
 * tenant starts on free) with its sign-up grant fixed then. One round trip either way.
 */
export async function tenantAccount(db: CatalogDb, tenantId: string, now: Date): Promise<TenantAccount> {
  const free = planOf('free');
  const row = await db
    .with('created', (db) =>
      db
        .insertInto('tenant_accounts')
        .values({ tenant_id: tenantId, plan: 'free', signup_month: utcMonth(now), signup_grant_credits: signupGrantCredits(free), created_at: now })
        .onConflict((oc) => oc.column('tenant_id').doNothing())
        .returning((eb) => ['plan', eb.cast<string>('signup_month', 'text').as('signup_month'), 'signup_grant_credits']),
    )
    .selectFrom('created')
    .selectAll()
    .unionAll(accountOf(db, tenantId))
    .limit(1)
    .executeTakeFirst();
  // A concurrent first request created the row after this statement's snapshot was taken: it has
  // committed by now (the insert waited for it), so a fresh read sees it.
  return toAccount(tenantId, row ?? (await accountOf(db, tenantId).executeTakeFirstOrThrow()));
}

const accountOf = (db: CatalogDb, tenantId: string) =>
  db
    .selectFrom('tenant_accounts')
    .select((eb) => ['plan', eb.cast<string>('signup_month', 'text').as('signup_month'), 'signup_grant_credits'])
    .where('tenant_id', '=', tenantId);

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
  await db.updateTable('tenant_accounts').set({ plan: plan as PlanId, plan_changed_at: now }).where('tenant_id', '=', tenantId).execute();
  return getPlan(plan as PlanId)!;
}

/** Credits a tenant may spend in `month`: the plan's allowance, plus the grant in its sign-up month. */
export function monthAllowance(account: TenantAccount, month: string): number {
  return account.plan.credits_included + (month === account.signupMonth ? account.signupGrantCredits : 0);
}
