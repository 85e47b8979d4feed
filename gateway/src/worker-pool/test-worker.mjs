// A worker for pool.test.ts, speaking the pool's protocol by hand (no TypeScript, no loader):
// `echo` answers its value, `spin` holds its thread for `ms`, `fail` throws with a code, `crash`
// ends the thread, `grow` allocates until its heap limit is hit.
import { parentPort, workerData } from 'node:worker_threads';

if (workerData?.failToStart) throw new Error('cannot start');
parentPort.on('message', (task) => {
  if (task.op === 'echo') return parentPort.postMessage({ id: task.id, result: task.value });
  if (task.op === 'spin') {
    const until = Date.now() + task.ms;
    while (Date.now() < until);
    return parentPort.postMessage({ id: task.id, result: 'spun' });
  }
  if (task.op === 'fail') return parentPort.postMessage({ id: task.id, error: { message: 'refused', code: 'refused_here' } });
  if (task.op === 'crash') process.exit(3);
  if (task.op === 'grow') {
    const held = [];
    for (;;) held.push(new Array(1_000_000).fill(held.length));
  }
});
parentPort.postMessage({ ready: true });
