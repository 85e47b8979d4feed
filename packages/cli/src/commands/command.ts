import type { Config, ServiceName } from '@landscreen/config';
import type { DatabaseHandle } from '@landscreen/db';
import type { EventBus } from '@landscreen/events';
import type { Logger } from '@landscreen/rpc';

/** What an operator command gets: the database and bus of the process it runs in. */
export interface CommandContext {
  config: Config;
  logger: Logger;
  database: DatabaseHandle;
  /** The bus the servers use (NATS with NATS_URL; in the embedded server, its in-process bus). */
  bus: EventBus;
  /**
   * Aborted when whoever asked for the command goes away (Ctrl-C or SIGTERM of the CLI, its
   * control-socket connection closing): a long command stops and undoes what it started.
   */
  signal?: AbortSignal;
  out(line: string): void;
}

/**
 * An operator command as `--help` lists it. Its implementation is imported only when it runs, so
 * the CLI answers `--help` and parses arguments without loading any service.
 */
export interface Command {
  /** The words that name it, e.g. ["tenant", "create"]. */
  words: string[];
  summary: string;
  usage: string;
  /**
   * The services whose schemas the command reads or writes: when it runs on its own, only these
   * are loaded and migrated.
   */
  services: readonly ServiceName[];
  load(): Promise<CommandImplementation>;
  /** False for a command that only reads files (inspect): it runs without opening the database. */
  needsDatabase?: boolean;
}

export interface CommandImplementation {
  run(context: CommandContext, args: string[]): Promise<number>;
}

/** A mistake in how a command was called: printed with the command's usage, exit code 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
