import pg from 'pg';
import { processCpuMs } from './cpu.js';
import { ADMIN_DATABASE_URL } from './database.js';

/**
 * Samples, every 100 ms, the CPU of each PostgreSQL backend connected to `database` (from
 * pg_stat_activity and /proc, so on this machine's server only); `stop()` answers their CPU
 * seconds since the start. A backend that lives less than a sample is missed: fine for a load
 * that holds its connection throughout, as an import does.
 */
export async function backendCpuMeter(database: string): Promise<{ stop(): Promise<number> }> {
  const admin = new pg.Client({ connectionString: ADMIN_DATABASE_URL });
  await admin.connect();
  const latest = new Map<number, number>();
  const first = new Map<number, number>();
  let started = false;
  let sampling = Promise.resolve();
  const sample = async () => {
    const { rows } = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [database]);
    for (const { pid } of rows) {
      const ms = processCpuMs(pid);
      if (ms === undefined) continue;
      // A backend already there at the start counts from then; one born later from zero.
      if (!first.has(pid)) first.set(pid, started ? 0 : ms);
      latest.set(pid, ms);
    }
  };
  await sample();
  started = true;
  const timer = setInterval(() => (sampling = sampling.then(sample, sample)), 100);
  return {
    async stop() {
      clearInterval(timer);
      await sampling;
      await admin.end();
      let total = 0;
      for (const [pid, ms] of latest) total += ms - (first.get(pid) ?? 0);
      return total / 1000;
    },
  };
}
