import { conflict, notFound } from '@landscreen/rpc';
import type { Refusal } from './state-machine.js';

/** The service's D2 errors, in one place so that every handler words them alike. */
export const jobNotFound = () => notFound('job_not_found', 'No such diligence job.');
export const stepNotFound = (step: string) => notFound('step_not_found', `The job has no step named "${step}".`);
export const invalidClaim = () => conflict('invalid_claim', 'The claim token is not the job\'s live claim (wrong, or its lease expired).');
export const budgetBelowCost = (costUsd: string) =>
  conflict('budget_below_cost', `The budget is below what the job has already spent (${costUsd} USD).`, { cost_usd: costUsd });
/**
 * A cost that fits a column alone but would take the job's recorded total past what numeric(12,4)
 * holds: the request conflicts with what is recorded (409), and nothing is written.
 */
export const amountOutOfRange = (costUsd: string, amountUsd: string, maxUsd: string) =>
  conflict('amount_out_of_range', `The job has recorded ${costUsd} USD; ${amountUsd} USD more would exceed ${maxUsd} USD, the most a cost total can hold.`, {
    cost_usd: costUsd,
    max_usd: maxUsd,
  });

/** A provider request the ledger already holds, presented again with another provider or amount. */
export const providerRequestConflict = (recorded: { provider: string; provider_request_id: string; cost_usd: string }) =>
  conflict('conflict', `Provider request "${recorded.provider_request_id}" is already recorded for this step with provider "${recorded.provider}" and ${recorded.cost_usd} USD.`, { recorded });

const REFUSALS: Record<Refusal, string> = {
  not_authorized: 'The job is not authorized yet.',
  already_claimed: 'The job is claimed by another worker and its lease has not expired.',
  invalid_job_state: 'The job cannot do that in its current status.',
  step_finished: 'The step already has an outcome.',
};

/** A refusal of the state machine: 409 with the status that refused. */
export const refused = (refusal: Refusal, fields: Record<string, string>) => conflict(refusal, REFUSALS[refusal], fields);
