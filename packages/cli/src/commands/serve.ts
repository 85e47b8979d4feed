import { parseArgs } from 'node:util';
import { ConfigError, SERVICE_NAMES, type Config, type ServiceName } from '@landscreen/config';
import { createLogger, type Logger } from '@landscreen/rpc';
import { lockDataDir } from '@landscreen/runtime/data-dir-lock';

/**
 * `serve` alone is the embedded default (everything in one process, the diligence and runs
 * workers included). `--service`, `--gateway`, `--worker`, `--runs-worker` and `--prepare-worker` run one
 * piece of the distributed mode;
 * `--distributed` starts all of them as child processes. Each imports only what it runs.
 */
export async function serve(args: string[], config: Config, logger: Logger = createLogger(config.logLevel)): Promise<number> {
  const { values } = parseArgs({
    args,
    options: { service: { type: 'string' }, gateway: { type: 'boolean' }, worker: { type: 'boolean' }, 'runs-worker': { type: 'boolean' }, 'prepare-worker': { type: 'boolean' }, distributed: { type: 'boolean' } },
    strict: true,
  });
  if (values.distributed) return (await import('@landscreen/runtime/distributed')).runDistributed(config, logger);

  const name = values.service ?? (values.gateway ? 'gateway' : values.worker ? 'worker' : values['runs-worker'] ? 'runs-worker' : values['prepare-worker'] ? 'prepare-worker' : 'landscreen');
  const { startProcessTelemetry } = await import('@landscreen/runtime/telemetry');
  const telemetry = await startProcessTelemetry(name, config, logger);
  let running: { close(): Promise<void> };
  try {
    running = await startProcess(values, config, logger);
  } catch (error) {
    await telemetry.close();
    throw error;
  }
  await waitForSignal();
  logger.info('shutting down');
  await running.close();
  await telemetry.close();
  logger.info('stopped');
  return 0;
}

async function startProcess(values: { service?: string; gateway?: boolean; worker?: boolean; 'runs-worker'?: boolean; 'prepare-worker'?: boolean }, config: Config, logger: Logger): Promise<{ close(): Promise<void> }> {
  let running: { close(): Promise<void> };
  if (values.service) {
    if (!SERVICE_NAMES.includes(values.service as ServiceName)) throw new ConfigError([`unknown service "${values.service}"`]);
    if (!config.databaseUrl) throw new ConfigError(['a service process needs DATABASE_URL (PGlite is single-process)']);
    const { startServiceProcess } = await import('@landscreen/runtime/service-process');
    running = await startServiceProcess(values.service as ServiceName, config, logger);
  } else if (values.gateway) {
    running = await (await import('@landscreen/runtime/gateway-process')).startGatewayProcess(config, logger);
  } else if (values.worker) {
    running = await (await import('@landscreen/runtime/worker-process')).startWorkerProcess(config, logger);
  } else if (values['runs-worker']) {
    running = await (await import('@landscreen/runtime/runs-worker-process')).startRunsWorkerProcess(config, logger);
  } else if (values['prepare-worker']) {
    running = await (await import('@landscreen/runtime/prepare-worker-process')).startPrepareWorkerProcess(config, logger);
  } else {
    running = await startEmbedded(config, logger);
  }
  return running;
}

async function startEmbedded(config: Config, logger: Logger) {
  const unlock = config.databaseUrl ? () => {} : lockDataDir(config.dataDir);
  try {
    const [{ startEmbeddedStack }, { serveControlSocket }, { runCommand }] = await Promise.all([
      import('@landscreen/runtime/stack'),
      import('../control/server.js'),
      import('./run.js'),
    ]);
    const stack = await startEmbeddedStack({ config, logger, worker: config.worker.embedded, runsWorker: config.runs.embedded, warmWorkers: true });
    // With PGlite this process owns the database: operator commands come through this socket.
    const control = config.databaseUrl
      ? undefined
      : await serveControlSocket(config.dataDir, (argv, out, signal) =>
          runCommand(argv, { config, logger, database: stack.database, bus: stack.bus, signal }, out),
        );
    return {
      close: async () => {
        await control?.close();
        await stack.close();
        unlock();
      },
    };
  } catch (error) {
    unlock();
    throw error;
  }
}

function waitForSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handler = (signal: NodeJS.Signals) => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
      resolve(signal);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}
