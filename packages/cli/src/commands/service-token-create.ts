import { parseArgs } from 'node:util';
import { AuthInputError, createServiceToken, authDb } from '@landscreen/auth-service';
import { UsageError, type CommandImplementation } from './command.js';

export const serviceTokenCreateCommand: CommandImplementation = {
  async run({ database, out }, args) {
    const { values } = parseArgs({ args, options: { tenant: { type: 'string' }, name: { type: 'string' } }, strict: true });
    if (!values.tenant || !values.name) throw new UsageError('--tenant and --name are required');
    try {
      const token = await createServiceToken(authDb(database.db), values.tenant, values.name);
      out(`id: ${token.id}`);
      out(`secret: ${token.secret}`);
      out('Send both: x-service-token-id: <id> and authorization: Bearer <secret>. The secret is not shown again.');
      return 0;
    } catch (error) {
      if (!(error instanceof AuthInputError)) throw error;
      out(`error: ${error.message}`);
      return 1;
    }
  },
};
