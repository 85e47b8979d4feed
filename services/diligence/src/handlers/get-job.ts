import type { HandlerContext } from '@connectrpc/connect';
import type { diligencev1 } from '@landscreen/proto';
import { jsonBytes, requireCaller } from '@landscreen/rpc';
import type { DiligenceContext } from '../context.js';
import { jobAnswer } from '../operations/job-answer.js';
import { contactsOf } from '../store/contacts.js';
import { readJob } from '../store/jobs.js';
import { customerContactView } from '../views/contact-view.js';

/**
 * A job of the caller's tenant with its ordered steps, and what a worker's steps work from: the
 * parcel as it was promoted and the contacts on record for the property (a worker may not read
 * the property page itself, D8).
 */
export function getJobHandler(context: DiligenceContext) {
  return async (request: diligencev1.GetJobRequest, call: HandlerContext): Promise<diligencev1.GetJobResponse> => {
    const { tenantId } = requireCaller(call);
    const job = await readJob(context.db, tenantId, request.jobId);
    const [answer, contacts] = await Promise.all([
      jobAnswer(context.db, job, context.clock.now()),
      contactsOf(context.db, tenantId, job.property_id),
    ]);
    return {
      $typeName: 'landscreen.diligence.v1.GetJobResponse',
      job: answer,
      parcelJson: job.parcel === null || job.parcel === undefined ? undefined : jsonBytes(job.parcel),
      contacts: contacts.map(customerContactView),
    };
  };
}
