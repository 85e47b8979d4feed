import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedStack, type EmbeddedStack } from '@landscreen/runtime';
import { loadConfig, type Config } from '@landscreen/config';
import type { EventBus } from '@landscreen/events';
import { createLogger, type Clock, type FaultInjector } from '@landscreen/rpc';
import { createTestPGlite } from './pglite.js';
import { createTestPostgres } from './postgres.js';
import { httpClient, type HttpClient } from './http.js';

export type DatabaseMode = 'pglite' | 'postgres';
/** End-to-end suites run once per mode: the embedded default's engine and real PostgreSQL. */
export const DATABASE_MODES: DatabaseMode[] = ['pglite', 'postgres'];

export interface TestStackOptions {
  config?: Partial<Config>;
  clock?: Clock;
  bus?: EventBus;
  faults?: FaultInjector;
  /** Run the embedded runs worker (D35) in the stack, as `landscreen serve` does. */
  runsWorker?: boolean;
}

export interface TestStack extends HttpClient {
  url: string;
  stack: EmbeddedStack;
  config: Config;
  close(): Promise<void>;
}

/** The whole product in-process, listening on a free port, on a database of its own. */
export async function startTestStack(mode: DatabaseMode, options: TestStackOptions = {}): Promise<TestStack> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'landscreen-test-'));
  const database = mode === 'postgres' ? await createTestPostgres() : await createTestPGlite();
  const config = loadConfig({}, { port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', authDev: true, ...options.config });
  try {
    const stack = await startEmbeddedStack({
      config,
      logger: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'),
      database,
      bus: options.bus,
      clock: options.clock,
      faults: options.faults,
      runsWorker: options.runsWorker,
      // Every message makes the trip through bytes a network hop would: one that cannot fails here too.
      checkMessages: true,
    });
    return {
      ...httpClient(stack.url),
      url: stack.url,
      stack,
      config,
      close: async () => {
        await stack.close();
        await database.close();
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}
