// Preloaded (node --import) into a server a benchmark profiles (BENCH_CPU_PROFILE): records every
// stall of the main thread's event loop over 50 ms, with its end on the monotonic clock V8's CPU
// profiles use (µs) and the process's CPU time during it, and writes them beside the profile at
// exit (`stalls-<pid>.json`). `node bench/lib/profile-stalls.mjs <dir>` reads the two together.
// A timer every 5 ms: a gap between two of its turns longer than that is a stall.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { isMainThread } from 'node:worker_threads';

const dir = process.env.BENCH_CPU_PROFILE;
if (isMainThread && dir) {
  const stalls = [];
  let last = process.hrtime.bigint();
  let lastCpu = process.cpuUsage();
  const timer = setInterval(() => {
    const now = process.hrtime.bigint();
    const cpu = process.cpuUsage();
    const gapMs = Number(now - last) / 1e6 - 5;
    // Every thread's CPU: on an idle core the stall would have lasted at most this long.
    const cpuMs = (cpu.user - lastCpu.user + cpu.system - lastCpu.system) / 1000;
    if (gapMs > 50) stalls.push([Number(now / 1000n), Math.round(gapMs), Math.round(cpuMs)]);
    last = now;
    lastCpu = cpu;
  }, 5);
  timer.unref();
  process.on('exit', () => writeFileSync(path.join(dir, `stalls-${process.pid}.json`), JSON.stringify(stalls)));
}
