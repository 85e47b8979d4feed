import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { startWorker } from './start-worker.js';

const firstMessage = (worker: Worker) =>
  new Promise<any>((resolve, reject) => {
    worker.once('message', (message) => {
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });

describe('startWorker', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'threads-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('runs the TypeScript entry when only the sources exist, with the export condition of the tests', async () => {
    const answer = await firstMessage(startWorker(new URL('./test-echo-worker.js', import.meta.url), { workerData: 21, argv: ['--flag'] }));
    expect(answer).toEqual({ doubled: 42, argv: ['--flag'], sourceCondition: true });
  });

  it('runs the JavaScript file when it exists, as in dist/', async () => {
    const file = path.join(dir, 'built-worker.js');
    writeFileSync(file, "import { parentPort, workerData } from 'node:worker_threads';\nparentPort.postMessage(workerData + 1);\n");
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
    expect(await firstMessage(startWorker(pathToFileURL(file), { workerData: 1 }))).toBe(2);
  });

  it('says which entry is missing when there is neither', () => {
    expect(() => startWorker(pathToFileURL(path.join(dir, 'nothing.js')))).toThrow(/no worker entry at .*nothing\.js/);
  });
});
