import { parseArgs } from 'node:util';
import { AuthInputError, setMembership, authDb } from '@landscreen/auth-service';
import { UsageError, type CommandImplementation } from './command.js';

export const memberAddCommand: CommandImplementation = {
  async run({ database, bus, out }, args) {
    const { values } = parseArgs({ args, options: { tenant: { type: 'string' }, email: { type: 'string' }, role: { type: 'string' } }, strict: true });
    if (!values.tenant || !values.email || !values.role) throw new UsageError('--tenant, --email and --role are required');
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(values.email)) throw new UsageError(`"${values.email}" is not an email address`);
    try {
      // Announced on the servers' bus, so a demotion bites on the member's next request (also
      // when this runs in a process of its own, with NATS_URL).
      const member = await setMembership(authDb(database.db), values.tenant, values.email, values.role, bus);
      out(`${member.identity.email} is ${member.role} of ${member.tenant.slug}`);
      return 0;
    } catch (error) {
      if (!(error instanceof AuthInputError)) throw error;
      out(`error: ${error.message}`);
      return 1;
    }
  },
};
