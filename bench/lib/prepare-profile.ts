// A driver for profiling `landscreen prepare` (`node --cpu-prof`): prepareMarket on a copy of a
// bench database, stopped after PROFILE_SECONDS (the profile is written at exit). Usage:
//   DATABASE_URL=... PROFILE_SECONDS=120 node --cpu-prof --import tsx bench/lib/prepare-profile.ts
import { openDatabase } from '@landscreen/db';
import { prepareMarket } from '@landscreen/prepare';
import { BENCH_DB_TIMEOUTS } from './layered-market.js';

const url = process.env.DATABASE_URL!;
const database = await openDatabase({ databaseUrl: url, timeouts: BENCH_DB_TIMEOUTS });
const started = Date.now();
const cpu = process.cpuUsage();
const report = (what: string) => {
  const used = process.cpuUsage(cpu);
  console.log(`${what} at ${((Date.now() - started) / 1000).toFixed(1)} s wall, ${((used.user + used.system) / 1e6).toFixed(1)} s CPU (all threads)`);
};
if (process.env.PROFILE_SECONDS) setTimeout(() => (report('stopped'), process.exit(0)), Number(process.env.PROFILE_SECONDS) * 1000);
let last = 0;
await prepareMarket(database.db, {
  market: process.env.MARKET ?? 'bench-tx',
  engineWorkers: { count: Number(process.env.WORKERS ?? 2) },
  onStart: () => report('screening starts'),
  onProgress: ({ parcels }) => {
    if (parcels - last >= 100_000) {
      last = parcels;
      report(`${parcels} parcels`);
    }
  },
});
report('done');
await database.close();
