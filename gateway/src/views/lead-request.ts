import type { LeadRequestList, LeadRequestRecord } from '@landscreen/api-schemas';
import type { pipelinev1 } from '@landscreen/proto';
import { nullIfAbsent } from '@landscreen/rpc';

/** A lead request (D30) as its REST record: every optional field present as null. */
export function leadRequestJson(request: pipelinev1.LeadRequest): LeadRequestRecord {
  return {
    id: request.id,
    buy_box: request.buyBox,
    count: request.count,
    note: nullIfAbsent(request.note),
    status: request.status as LeadRequestRecord['status'],
    delivery_id: nullIfAbsent(request.deliveryId),
    failure_code: nullIfAbsent(request.failureCode),
    failure_reason: nullIfAbsent(request.failureReason),
    created_at: request.createdAt,
    completed_at: nullIfAbsent(request.completedAt),
  };
}

/** GET /v1/lead-requests: the tenant's lead requests, newest first. */
export function leadRequestListJson(requests: readonly pipelinev1.LeadRequest[]): LeadRequestList {
  return { lead_requests: requests.map(leadRequestJson) };
}
