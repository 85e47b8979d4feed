import { migrateModules } from '../runtime/modules.js';
import type { Command } from './command.js';

export const migrateCommand: Command = {
  words: ['migrate'],
  summary: 'Apply every service\'s pending migrations to its schema',
  usage: 'landscreen migrate',
  async run({ database, modules, out }) {
    const applied = await migrateModules(database, modules);
    for (const [schema, names] of Object.entries(applied)) {
      out(names.length ? `${schema}: applied ${names.join(', ')}` : `${schema}: up to date`);
    }
    return 0;
  },
};
