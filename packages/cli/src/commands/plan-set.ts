import { parseArgs } from 'node:util';
import { findTenant, authDb } from '@landscreen/auth-service';
import { setPlan, UnknownPlanIdError } from '@landscreen/catalog-service/billing';
import { catalogDb } from '@landscreen/catalog-service/schema';
import { UsageError, type CommandImplementation } from './command.js';

export const planSetCommand: CommandImplementation = {
  async run({ database, out }, args) {
    const { values } = parseArgs({ args, options: { tenant: { type: 'string' }, plan: { type: 'string' } }, strict: true });
    if (!values.tenant || !values.plan) throw new UsageError('--tenant and --plan are required');
    const tenant = await findTenant(authDb(database.db), values.tenant);
    if (!tenant) {
      out(`error: no tenant "${values.tenant}"`);
      return 1;
    }
    try {
      const plan = await setPlan(catalogDb(database.db), tenant.id, values.plan, new Date());
      out(`${tenant.slug} is on the ${plan.id} plan: ${plan.credits_included.toLocaleString('en-US')} credits a month, ${plan.rpm} requests a minute`);
      return 0;
    } catch (error) {
      if (!(error instanceof UnknownPlanIdError)) throw error;
      out(`error: ${error.message}`);
      return 1;
    }
  },
};
