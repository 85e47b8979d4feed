import type { HandlerContext } from '@connectrpc/connect';
import type { diligencev1 } from '@landscreen/proto';
import { requireCaller } from '@landscreen/rpc';
import type { DiligenceContext } from '../context.js';
import { isUuid } from '../input.js';
import { contactsOf } from '../store/contacts.js';
import { stepsOf } from '../store/jobs.js';
import { customerContactView } from '../views/contact-view.js';
import { propertyDiligenceView } from '../views/property-diligence.js';

/**
 * For the property page (D28), called by the pipeline service's GetProperty with the caller's
 * header: the job as customers read it (absent without one) and the contacts. Reads only; a property this service
 * knows nothing about (or another tenant's) has no diligence and no contacts.
 */
export function getPropertyDiligenceHandler(context: DiligenceContext) {
  return async (request: diligencev1.GetPropertyDiligenceRequest, call: HandlerContext): Promise<diligencev1.GetPropertyDiligenceResponse> => {
    const { tenantId } = requireCaller(call);
    if (!isUuid(request.propertyId)) return { $typeName: 'landscreen.diligence.v1.GetPropertyDiligenceResponse', diligence: undefined, contacts: [] };
    const [job, contacts] = await Promise.all([
      context.db.selectFrom('jobs').selectAll().where('tenant_id', '=', tenantId).where('property_id', '=', request.propertyId).executeTakeFirst(),
      contactsOf(context.db, tenantId, request.propertyId),
    ]);
    const diligence = job ? propertyDiligenceView(job, await stepsOf(context.db, [job.id])) : undefined;
    return { $typeName: 'landscreen.diligence.v1.GetPropertyDiligenceResponse', diligence, contacts: contacts.map(customerContactView) };
  };
}
