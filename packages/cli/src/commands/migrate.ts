import { SERVICE_NAMES } from '@landscreen/config';
import { migrateModules, migrationPlan } from '@landscreen/runtime/service-packages';
import type { CommandImplementation } from './command.js';

export const migrateCommand: CommandImplementation = {
  async run({ database, out }) {
    const applied = await migrateModules(database, await migrationPlan(SERVICE_NAMES));
    for (const [schema, names] of Object.entries(applied)) {
      out(names.length ? `${schema}: applied ${names.join(', ')}` : `${schema}: up to date`);
    }
    return 0;
  },
};
