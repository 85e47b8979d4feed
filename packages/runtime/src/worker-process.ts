import { ConfigError, type Config } from '@landscreen/config';
import { startDiligenceWorker } from '@landscreen/diligence-worker';
import { connectNatsBus } from '@landscreen/events';
import type { Logger } from '@landscreen/rpc';

/**
 * Distributed mode: the diligence worker alone. It needs NATS (an in-process bus would carry
 * nothing to it from the services) and the legacy shared secret it calls the gateway with (D7).
 * Several of these share the work through the one durable consumer.
 */
export async function startWorkerProcess(config: Config, logger: Logger) {
  const problems = [
    ...(config.natsUrl ? [] : ['a worker process needs NATS_URL (the in-process bus reaches no other process)']),
    ...(config.legacySharedSecret ? [] : ['a worker process needs LEGACY_SHARED_SECRET (the credential it calls the gateway with)']),
  ];
  if (problems.length > 0) throw new ConfigError(problems);
  const bus = await connectNatsBus(config.natsUrl!, { name: 'landscreen-diligence-worker' });
  try {
    const worker = await startDiligenceWorker({
      bus,
      gatewayUrl: config.worker.gatewayUrl ?? `http://127.0.0.1:${config.port}`,
      secret: config.legacySharedSecret!,
      config: config.worker,
      logger: logger.child({ component: 'diligence-worker' }),
    });
    return {
      close: async () => {
        await worker.stop();
        await bus.close();
      },
    };
  } catch (error) {
    await bus.close();
    throw error;
  }
}
