import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time (user + system, ms) used so far by processes, read from Linux's /proc; undefined where
 * there is no /proc. Lets a benchmark say where a request's CPU went: the server, PostgreSQL's
 * backends, or the load generator itself, all sharing the machine's cores.
 */
export function processCpuMs(pid: number): number | undefined {
  try {
    // Fields after "(comm) ": utime is the 12th and stime the 13th, in clock ticks (100 a second).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** The same summed over every process named postgres (its backends and background workers). */
export function postgresCpuMs(): number | undefined {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  let total = 0;
  for (const pid of pids) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').startsWith('postgres')) total += processCpuMs(Number(pid)) ?? 0;
    } catch {
      // exited meanwhile
    }
  }
  return total;
}

/** Starts a CPU meter; `perItem(n)` answers ms of CPU per item for each side since the start. */
export function cpuMeter(serverPid: number | undefined) {
  const server0 = serverPid === undefined ? undefined : processCpuMs(serverPid);
  const postgres0 = postgresCpuMs();
  const client0 = process.cpuUsage();
  const per = (used: number | undefined, start: number | undefined, n: number) =>
    used === undefined || start === undefined ? undefined : Math.round(((used - start) / n) * 100) / 100;
  return {
    perItem(n: number) {
      const client = process.cpuUsage(client0);
      return {
        serverMs: per(serverPid === undefined ? undefined : processCpuMs(serverPid), server0, n),
        postgresMs: per(postgresCpuMs(), postgres0, n),
        loadGeneratorMs: Math.round(((client.user + client.system) / 1000 / n) * 100) / 100,
      };
    },
  };
}
