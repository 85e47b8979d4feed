import type { DiligenceImpl } from '../connect.js';
import type { DiligenceContext } from '../context.js';
import { authorizeJobHandler } from './authorize-job.js';
import { claimJobHandler } from './claim-job.js';
import { completeStepHandler } from './complete-step.js';
import { failStepHandler } from './fail-step.js';
import { getJobHandler } from './get-job.js';
import { getPropertyDiligenceHandler } from './get-property-diligence.js';
import { getSpendHandler } from './get-spend.js';
import { listJobsHandler } from './list-jobs.js';
import { reconcileStepHandler } from './reconcile-step.js';
import { revealContactHandler } from './reveal-contact.js';
import { startStepHandler } from './start-step.js';

/** Every RPC of DiligenceService but Health, one file each. */
export function diligenceHandlers(context: DiligenceContext): Omit<DiligenceImpl, 'health'> {
  return {
    listJobs: listJobsHandler(context),
    getJob: getJobHandler(context),
    authorizeJob: authorizeJobHandler(context),
    claimJob: claimJobHandler(context),
    startStep: startStepHandler(context),
    completeStep: completeStepHandler(context),
    failStep: failStepHandler(context),
    reconcileStep: reconcileStepHandler(context),
    getSpend: getSpendHandler(context),
    revealContact: revealContactHandler(context),
    getPropertyDiligence: getPropertyDiligenceHandler(context),
  };
}
