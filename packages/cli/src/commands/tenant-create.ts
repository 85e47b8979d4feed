import { parseArgs } from 'node:util';
import { AuthInputError, createTenant, authDb } from '@landscreen/auth-service';
import { UsageError, type CommandImplementation } from './command.js';

export const tenantCreateCommand: CommandImplementation = {
  async run({ database, out }, args) {
    const { values } = parseArgs({ args, options: { slug: { type: 'string' }, name: { type: 'string' } }, strict: true });
    if (!values.slug || !values.name) throw new UsageError('--slug and --name are required');
    try {
      const tenant = await createTenant(authDb(database.db), values.slug, values.name);
      out(`created tenant ${tenant.slug} (${tenant.name}) id=${tenant.id}`);
      return 0;
    } catch (error) {
      if (!(error instanceof AuthInputError)) throw error;
      out(`error: ${error.message}`);
      return 1;
    }
  },
};
