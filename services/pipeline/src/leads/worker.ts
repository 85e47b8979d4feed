import { createOutboxRelay } from '@landscreen/diligence-service/relay';
import type { Subscription } from '@landscreen/events';
import type { ServiceDeps } from '@landscreen/rpc';
import type { PipelineContext } from '../context.js';
import { LEAD_REQUEST_CREATED, LEADS_OUTBOX, LEADS_STREAM, type LeadRequestCreated } from './events.js';
import { fulfilLeadRequest, markFailed } from './fulfil.js';

/** The durable consumer every pipeline replica shares: each request is fulfilled by one of them. */
export const LEAD_WORKER_DURABLE = 'pipeline-lead-requests';
/** Deliveries of one event before the request is failed instead of retried again. */
const MAX_DELIVER = 5;
const RETRY_SUBSCRIBE_MS = 2_000;

/**
 * D30's background work, run by the pipeline service wherever it runs: the relay of the pipeline's
 * outbox to the LEADS stream (the same relay as diligence's, D27), and the lead-request worker, a
 * durable consumer with explicit acks. A handler that throws has its event redelivered; the last
 * delivery of a request that still cannot be fulfilled fails it, so no request stays open forever.
 * Subscribing waits for the bus (NATS may come up after the service) without holding up the start.
 */
export function startLeadWork(context: PipelineContext, deps: ServiceDeps) {
  const logger = context.logger.child({ component: 'lead-worker' });
  const relay = createOutboxRelay({ db: deps.db, bus: deps.bus, logger: logger.child({ component: 'leads-outbox-relay' }), faults: deps.faults }, { ...deps.config.relay, outbox: LEADS_OUTBOX });
  let subscription: Subscription | undefined;
  let stopping = false;
  let retry: NodeJS.Timeout | undefined;
  let subscribing: Promise<void> | undefined;

  const subscribe = async (): Promise<void> => {
    try {
      await deps.bus.ensureStream(LEADS_OUTBOX.stream, LEADS_OUTBOX.subjects);
      const started = await deps.bus.subscribe(
        LEADS_STREAM,
        { durable: LEAD_WORKER_DURABLE, subjects: [LEAD_REQUEST_CREATED], concurrency: 2, ackWaitMs: 120_000, maxDeliver: MAX_DELIVER },
        async (event) => {
          const { lead_request_id: requestId } = event.data as LeadRequestCreated;
          try {
            const outcome = await fulfilLeadRequest(context, requestId);
            logger.info({ requestId, outcome }, 'lead request handled');
          } catch (error) {
            if (event.deliveryCount < MAX_DELIVER) throw error;
            logger.error({ err: error, requestId }, 'lead request failed on its last delivery');
            await markFailed(context, requestId, 'fulfilment_error', 'The leads could not be delivered; request them again.');
          }
        },
      );
      if (stopping) await started.stop();
      else subscription = started;
    } catch (error) {
      if (stopping) return;
      logger.warn({ err: error }, 'lead worker could not subscribe; retrying');
      retry = setTimeout(() => void (subscribing = subscribe()), RETRY_SUBSCRIBE_MS);
    }
  };

  return {
    async start() {
      relay.start();
      subscribing = subscribe();
    },
    async stop() {
      stopping = true;
      if (retry) clearTimeout(retry);
      await subscribing;
      await subscription?.stop();
      await relay.stop();
    },
  };
}
