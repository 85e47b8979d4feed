import type { Config } from '@landscreen/config';
import type { DatabaseHandle } from '@landscreen/db';
import type { EventBus } from '@landscreen/events';
import type { Logger, ServiceModule } from '@landscreen/rpc';

/** What an operator command gets: the database, bus and service modules of the process it runs in. */
export interface CommandContext {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  /** The bus the servers use (NATS with NATS_URL; in the embedded server, its in-process bus). */
  bus: EventBus;
  modules: ServiceModule[];
  out(line: string): void;
}

export interface Command {
  /** The words that name it, e.g. ["tenant", "create"]. */
  words: string[];
  summary: string;
  usage: string;
  /** False for a command that only reads files (inspect): it runs without opening the database. */
  needsDatabase?: boolean;
  run(context: CommandContext, args: string[]): Promise<number>;
}

/** A mistake in how a command was called: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
