import { demoCommand } from './demo.js';
import { entitleCommand } from './entitle.js';
import { importLayerCommand } from './import-layer.js';
import { importParcelsCommand } from './import-parcels.js';
import { inspectCommand } from './inspect.js';
import { layersCommand } from './layers.js';
import { memberAddCommand } from './member-add.js';
import { migrateCommand } from './migrate.js';
import { planSetCommand } from './plan-set.js';
import { prepareCommand } from './prepare.js';
import { serviceTokenCreateCommand } from './service-token-create.js';
import { tenantCreateCommand } from './tenant-create.js';
import type { Command } from './command.js';

/** Every operator command that works on the database (serve is handled by main). */
export const COMMANDS: Command[] = [
  migrateCommand,
  tenantCreateCommand,
  memberAddCommand,
  serviceTokenCreateCommand,
  entitleCommand,
  planSetCommand,
  importParcelsCommand,
  importLayerCommand,
  inspectCommand,
  layersCommand,
  prepareCommand,
  demoCommand,
];

/** The command whose words start argv, longest match first, and the remaining arguments. */
export function findCommand(argv: string[]): { command: Command; args: string[] } | undefined {
  const sorted = [...COMMANDS].sort((a, b) => b.words.length - a.words.length);
  for (const command of sorted) {
    if (command.words.every((word, index) => argv[index] === word)) {
      return { command, args: argv.slice(command.words.length) };
    }
  }
  return undefined;
}

export { UsageError, type Command, type CommandContext } from './command.js';
