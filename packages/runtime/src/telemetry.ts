import type { Config } from '@landscreen/config';
import type { Logger } from '@landscreen/rpc';
import { serveMetrics, startProcessMetrics, startTracingFromEnv } from '@landscreen/telemetry';

export interface ProcessTelemetry {
  close(): Promise<void>;
}

/**
 * What operators see of one process: its metrics (labelled with `name`), served on METRICS_PORT
 * when that is set (a service's own port speaks HTTP/2 only, and the workers listen on nothing;
 * the gateway serves /metrics on its public port besides), and its traces, exported over OTLP
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set.
 */
export async function startProcessTelemetry(name: string, config: Config, logger: Logger): Promise<ProcessTelemetry> {
  startProcessMetrics(name);
  const tracing = await startTracingFromEnv(`landscreen-${name}`);
  if (tracing) logger.info({ endpoint: process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_ENDPOINT }, 'traces are exported over OTLP');
  try {
    const server = config.metrics.port === undefined ? undefined : await serveMetrics({ host: config.host, port: config.metrics.port, token: config.metrics.token });
    if (server) logger.info({ port: server.port, token: config.metrics.token !== undefined }, 'metrics are served on GET /metrics');
    return {
      close: async () => {
        await server?.close();
        await tracing?.shutdown();
      },
    };
  } catch (error) {
    await tracing?.shutdown();
    throw error;
  }
}
