import { conflict, notFound } from '@landscreen/rpc';
import type { Refusal } from './state-machine.js';

/** The service's D2 errors, in one place so that every handler words them alike. */
export const jobNotFound = () => notFound('job_not_found', 'No such diligence job.');
export const stepNotFound = (step: string) => notFound('step_not_found', `The job has no step named "${step}".`);
export const invalidClaim = () => conflict('invalid_claim', 'The claim token is not the job\'s live claim (wrong, or its lease expired).');
export const budgetBelowCost = (costUsd: string) =>
  conflict('budget_below_cost', `The budget is below what the job has already spent (${costUsd} USD).`, { cost_usd: costUsd });

const REFUSALS: Record<Refusal, string> = {
  not_authorized: 'The job is not authorized yet.',
  already_claimed: 'The job is claimed by another worker and its lease has not expired.',
  invalid_job_state: 'The job cannot do that in its current status.',
  step_finished: 'The step already has an outcome.',
};

/** A refusal of the state machine: 409 with the status that refused. */
export const refused = (refusal: Refusal, fields: Record<string, string>) => conflict(refusal, REFUSALS[refusal], fields);
