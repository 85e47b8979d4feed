import type { OutboxTable } from '@landscreen/diligence-service/relay';
import type { PipelineTransaction } from '../schema.js';
import { currentTraceparent } from '@landscreen/telemetry';

/** The JetStream stream of the pipeline's lead events (D30). */
export const LEADS_STREAM = 'LEADS';
export const LEAD_REQUEST_CREATED = 'leads.request.created';

/** The pipeline's outbox, relayed to LEADS by the same relay the diligence outbox uses (D27). */
export const LEADS_OUTBOX: OutboxTable = { table: 'pipeline.outbox', stream: LEADS_STREAM, subjects: ['leads.>'] };

export interface LeadRequestCreated {
  lead_request_id: string;
  tenant_id: string;
}

/** Writes the event of a new lead request inside the transaction that wrote the request. */
export async function recordLeadRequestCreated(trx: PipelineTransaction, event: LeadRequestCreated): Promise<void> {
  await trx.insertInto('outbox').values({ subject: LEAD_REQUEST_CREATED, data: JSON.stringify(event), traceparent: currentTraceparent() }).execute();
}
