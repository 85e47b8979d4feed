import { nullIfAbsent, type pipelinev1 } from '@landscreen/proto';

/** A lead request (D30) as its REST record: every optional field present as null. */
export function leadRequestJson(request: pipelinev1.LeadRequest) {
  return {
    id: request.id,
    buy_box: request.buyBox,
    count: request.count,
    note: nullIfAbsent(request.note),
    status: request.status,
    delivery_id: nullIfAbsent(request.deliveryId),
    failure_code: nullIfAbsent(request.failureCode),
    failure_reason: nullIfAbsent(request.failureReason),
    created_at: request.createdAt,
    completed_at: nullIfAbsent(request.completedAt),
  };
}
