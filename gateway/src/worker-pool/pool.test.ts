import { afterEach, describe, expect, it } from 'vitest';
import { WorkerPool, WorkerTaskError, type WorkerPoolOptions } from './pool.js';

const ENTRY = new URL('./test-worker.mjs', import.meta.url);

describe('WorkerPool', () => {
  const pools: WorkerPool[] = [];
  const pool = (options: Partial<WorkerPoolOptions> = {}) => {
    const created = new WorkerPool({ name: 'test', entry: ENTRY, size: 1, taskTimeoutMs: 60_000, maxQueue: 10, ...options });
    pools.push(created);
    return created;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((created) => created.close()));
  });

  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => expect.unreachable('the task succeeded'),
      (error: unknown) => {
        expect(error).toBeInstanceOf(WorkerTaskError);
        return error as WorkerTaskError;
      },
    );

  it('runs tasks in order on its workers and answers each its own result', async () => {
    const workers = pool({ size: 2 });
    await workers.ready();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, n) => workers.run({ op: 'echo', value: n })));
    expect(answers).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('fails a task the worker refuses with its code, and the worker lives on', async () => {
    const workers = pool();
    expect(await failure(workers.run({ op: 'fail' }))).toMatchObject({ reason: 'failed', code: 'refused_here', message: 'refused' });
    expect(await workers.run({ op: 'echo', value: 'still here' })).toBe('still here');
  });

  it('stops a task past its time budget, replaces the worker, and the next task runs', async () => {
    const workers = pool({ taskTimeoutMs: 200 });
    await workers.ready();
    const spinning = failure(workers.run({ op: 'spin', ms: 60_000 }));
    const queued = workers.run({ op: 'echo', value: 'after' });
    expect(await spinning).toMatchObject({ reason: 'timeout' });
    expect(await queued).toBe('after');
  });

  it('answers crashed when its worker dies mid-task or runs out of memory, and replaces it', async () => {
    const workers = pool({ resourceLimits: { maxOldGenerationSizeMb: 32 } });
    expect(await failure(workers.run({ op: 'crash' }))).toMatchObject({ reason: 'crashed' });
    expect(await failure(workers.run({ op: 'grow' }))).toMatchObject({ reason: 'crashed', code: 'ERR_WORKER_OUT_OF_MEMORY' });
    expect(await workers.run({ op: 'echo', value: 1 })).toBe(1);
  });

  it('refuses a task beyond its queue as busy, and every waiting task once closed', async () => {
    const workers = pool({ maxQueue: 1 });
    await workers.ready();
    const first = failure(workers.run({ op: 'spin', ms: 500 }));
    const waiting = failure(workers.run({ op: 'echo', value: 2 }));
    expect(await failure(workers.run({ op: 'echo', value: 3 }))).toMatchObject({ reason: 'busy' });
    await workers.close();
    expect(await waiting).toMatchObject({ reason: 'closed' });
    expect(await first).toMatchObject({ reason: 'closed' });
  });

  it('fails ready() and the waiting tasks when no worker can start', async () => {
    const workers = pool({ workerData: { failToStart: true } });
    const task = workers.run({ op: 'echo', value: 1 });
    await expect(workers.ready()).rejects.toThrow(/cannot start/);
    expect(await failure(task)).toMatchObject({ reason: 'crashed' });
  });
});
