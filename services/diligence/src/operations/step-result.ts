import type { diligencev1 } from '@landscreen/proto';
import { issue, validationError } from '@landscreen/rpc';
import { amountOutOfRange, providerRequestConflict } from '../errors.js';
import { jsonbText } from '../input.js';
import { formatMoney, MAX_STORABLE, moneyFromDb, parseMoney, type Money } from '../money.js';
import type { DiligenceTransaction } from '../schema.js';
import { FINISHED, moveJob, isRefusal, type ResultStatus, type StepMove } from '../state-machine.js';
import { recordJobEvent } from '../store/events.js';
import { addJobCost, moveJobTo, overBudget } from '../store/job-updates.js';
import { stepsOf, type JobRow, type StepRow } from '../store/jobs.js';
import { recordCost } from '../store/ledger.js';
import { ledgerEntryFor, recordedRequest } from '../store/provider-requests.js';

/** A provider's result for a step, as complete and reconcile both carry it (D24). */
export interface StepResultInput {
  status: ResultStatus;
  provider: string;
  providerVersion: string | null;
  providerRequestId: string | null;
  data: string | null;
  citations: string | null;
  cost: Money;
}

const RESULT_STATUSES: readonly string[] = ['ready', 'partial', 'needs_review'];

/** Reads the result the gateway validated; the same checks again, so that no caller can write a bad one. */
export function readStepResult(result: diligencev1.StepResult | undefined): StepResultInput {
  if (!result) throw validationError([issue.missing(['body'])]);
  if (!RESULT_STATUSES.includes(result.status)) {
    throw validationError([issue.literalError(['body', 'status'], result.status, RESULT_STATUSES)]);
  }
  return {
    status: result.status as ResultStatus,
    provider: result.provider,
    providerVersion: result.providerVersion ?? null,
    providerRequestId: result.providerRequestId ?? null,
    data: jsonbText(result.dataJson, ['body', 'data']),
    citations: jsonbText(result.citationsJson, ['body', 'citations']),
    cost: parseMoney(result.costUsd || '0', ['body', 'cost_usd']),
  };
}

/**
 * D24: a provider request is recorded once per step. Presented again with the same provider and
 * amount it is a repeat (idempotent); with another one it is not the same request, and dropping
 * the new amount silently would lose money spent, so it is refused with what is recorded (409).
 * Checked against the step as it was, before the result is written.
 */
export async function assertSameProviderRequest(trx: DiligenceTransaction, step: StepRow, result: StepResultInput): Promise<void> {
  if (result.providerRequestId === null) return;
  const recorded = await recordedRequest(trx, step, result.providerRequestId);
  if (!recorded || (recorded.provider === result.provider && recorded.amount === result.cost)) return;
  throw providerRequestConflict({ provider: recorded.provider, provider_request_id: result.providerRequestId, cost_usd: formatMoney(recorded.amount) });
}

/** Writes the result onto the step (the step's cost grows with its ledger rows, in {@link chargeStep}). */
export async function writeStepResult(trx: DiligenceTransaction, step: StepRow, move: StepMove, result: StepResultInput, now: Date, claimToken: string | null): Promise<StepRow> {
  return trx
    .updateTable('steps')
    .set({
      status: move.to,
      attempts: step.attempts + (move.attempt ? 1 : 0),
      claim_token: claimToken,
      provider: result.provider,
      provider_version: result.providerVersion,
      provider_request_id: result.providerRequestId,
      data: result.data,
      citations: result.citations,
      error_code: null,
      error_message: null,
      started_at: step.started_at ?? now,
      completed_at: now,
    })
    .where('job_id', '=', step.job_id)
    .where('name', '=', step.name)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Records the result's cost in the ledger (D24) and adds it to the step and the job, unless the
 * ledger already holds that provider request for this step (a repeat pays nothing twice).
 */
export async function chargeStep(trx: DiligenceTransaction, job: JobRow, step: StepRow, result: StepResultInput, now: Date): Promise<{ job: JobRow; charged: boolean }> {
  if (result.cost === 0n) return { job, charged: false };
  // A repeat of a recorded request pays nothing (assertSameProviderRequest saw it is the same).
  if (result.providerRequestId !== null && (await ledgerEntryFor(trx, step, result.providerRequestId))) return { job, charged: false };
  // The job's total is the sum of its steps' totals, so it bounds them all; the job row is locked,
  // so the check holds until commit. Refused before anything is written: the step stays usable.
  if (moneyFromDb(job.cost_usd) + result.cost > MAX_STORABLE) {
    throw amountOutOfRange(job.cost_usd, formatMoney(result.cost), formatMoney(MAX_STORABLE));
  }
  const charged = await recordCost(trx, {
    tenantId: job.tenant_id,
    jobId: job.id,
    step: step.name,
    propertyId: job.property_id,
    provider: result.provider,
    providerRequestId: result.providerRequestId,
    amount: result.cost,
    recordedAt: now,
  });
  if (!charged) return { job, charged: false };
  await trx
    .updateTable('steps')
    .set((eb) => ({ cost_usd: eb('cost_usd', '+', eb.cast<string>(eb.val(formatMoney(result.cost)), 'numeric')) }))
    .where('job_id', '=', step.job_id)
    .where('name', '=', step.name)
    .execute();
  return { job: await addJobCost(trx, job, result.cost, now), charged: true };
}

/** After a result or a cost: the job stops over budget, or takes its outcome after the last step (D22, D24). */
export async function settleJob(trx: DiligenceTransaction, job: JobRow, now: Date): Promise<JobRow> {
  const statuses = (await stepsOf(trx, [job.id])).map((step) => step.status);
  const move = moveJob('step_done', job.status, { overBudget: overBudget(job), allStepsDone: statuses.every((status) => FINISHED.includes(status)) }, statuses);
  if (isRefusal(move) || !move.changed) return job;
  const moved = await moveJobTo(trx, job, move, now);
  if (move.event) {
    await recordJobEvent(trx, move.event, moved, now, { cost_usd: moved.cost_usd, max_cost_usd: moved.max_cost_usd, over_budget: overBudget(moved) });
  }
  return moved;
}

/** What a step.completed event says about the result (D27). */
export const resultEventFields = (result: StepResultInput, extra: Record<string, unknown> = {}) => ({
  provider: result.provider,
  provider_request_id: result.providerRequestId,
  cost_usd: formatMoney(result.cost),
  ...extra,
});
