import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { SERVICE_NAMES, type Config } from '@landscreen/config';
import type { Logger } from '@landscreen/rpc';

/**
 * Starts every service as its own process plus the gateway, the diligence worker, a runs worker and a prepare worker, against
 * DATABASE_URL and NATS_URL, as docker-compose.yml does with containers. Stops them all when one
 * dies or on a signal. Without LEGACY_SHARED_SECRET a random one is made for this run and handed
 * to the children (the auth service accepts it, the worker calls the gateway with it).
 */
export async function runDistributed(config: Config, logger: Logger): Promise<number> {
  if (!config.databaseUrl || !config.natsUrl) {
    logger.error('distributed mode needs DATABASE_URL and NATS_URL');
    return 2;
  }
  const children = new Map<string, ChildProcess>();
  let stopping = false;
  const env = { ...process.env, LEGACY_SHARED_SECRET: config.legacySharedSecret ?? randomBytes(32).toString('base64url') };
  let nextMetricsPort = config.metrics.port;
  const start = (label: string, args: string[]) => {
    // One host, so each child that serves metrics on a port of its own takes the next one from
    // METRICS_PORT on (the gateway serves /metrics on its public port instead).
    const metricsPort = nextMetricsPort === undefined || label === 'gateway' || nextMetricsPort === 0 ? nextMetricsPort : nextMetricsPort++;
    // Each child runs as this process was started: the same script with the same Node flags (the
    // built CLI with its shebang's flags, or the sources through tsx).
    const childEnv = label === 'gateway' ? { ...env, METRICS_PORT: '' } : metricsPort === undefined ? env : { ...env, METRICS_PORT: String(metricsPort) };
    const child = spawn(process.execPath, [...process.execArgv, process.argv[1], 'serve', ...args], { stdio: 'inherit', env: childEnv });
    children.set(label, child);
    return child;
  };
  const stopAll = (signal: NodeJS.Signals) => {
    stopping = true;
    for (const child of children.values()) if (child.exitCode === null) child.kill(signal);
  };

  const exits = SERVICE_NAMES.map((name) => exitOf(start(name, ['--service', name]), name));
  // Services migrate their own schemas at start; the gateway only needs them reachable.
  exits.push(exitOf(start('gateway', ['--gateway']), 'gateway'));
  exits.push(exitOf(start('worker', ['--worker']), 'worker'));
  exits.push(exitOf(start('runs-worker', ['--runs-worker']), 'runs-worker'));
  exits.push(exitOf(start('prepare-worker', ['--prepare-worker']), 'prepare-worker'));
  process.once('SIGINT', () => stopAll('SIGINT'));
  process.once('SIGTERM', () => stopAll('SIGTERM'));

  const first = await Promise.race(exits);
  if (!stopping) {
    logger.error({ process: first.label, code: first.code }, 'a process stopped; stopping the others');
    stopAll('SIGTERM');
  }
  const all = await Promise.all(exits);
  return stopping && first.code === 0 ? 0 : all.find((exit) => exit.code !== 0)?.code ?? 0;
}

function exitOf(child: ChildProcess, label: string): Promise<{ label: string; code: number }> {
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ label, code: code ?? (signal ? 0 : 1) })));
}
