import { parseArgs } from 'node:util';
import { findTenant, authDb } from '@landscreen/auth-service';
import { discoveryDb, DiscoveryInputError, entitle } from '@landscreen/discovery-service';
import { UsageError, type CommandImplementation } from './command.js';

export const entitleCommand: CommandImplementation = {
  async run({ database, out }, args) {
    const { values } = parseArgs({ args, options: { tenant: { type: 'string' }, market: { type: 'string' } }, strict: true });
    if (!values.tenant || !values.market) throw new UsageError('--tenant and --market are required');
    const tenant = await findTenant(authDb(database.db), values.tenant);
    if (!tenant) {
      out(`error: no tenant "${values.tenant}"`);
      return 1;
    }
    try {
      const market = await entitle(discoveryDb(database.db), tenant.id, values.market);
      out(`${tenant.slug} is entitled to ${market.slug}`);
      return 0;
    } catch (error) {
      if (!(error instanceof DiscoveryInputError)) throw error;
      out(`error: ${error.message}`);
      return 1;
    }
  },
};
