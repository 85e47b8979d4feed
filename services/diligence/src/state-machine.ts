import type { DiligenceJobEvent, DiligenceStepEvent } from '@landscreen/events';
import type { JobStatus } from './data-access/steps.js';
import type { StepStatus } from './schema.js';

/**
 * The diligence state machine (D22-D25) as two tables: what each action does to a step, and what
 * a job does when it is authorized, claimed, or one of its steps moves. The first row whose
 * `from` holds the current status and whose `when` conditions all hold decides; an action with no
 * such row is refused. Handlers read these tables; the test next to this file checks them cell by
 * cell. Two rules sit in handlers because they decide a condition before the table is read: a
 * failure without a start counts as an attempt before `retry` is judged (fail-step.ts), and a
 * queued job has nothing to reconcile (reconcile-step.ts).
 */

export const MAX_ATTEMPTS = 3;

export type ResultStatus = 'ready' | 'partial' | 'needs_review';
export const FINISHED: readonly StepStatus[] = ['ready', 'partial', 'needs_review'];

/** 409 codes (D2, D23). */
export type Refusal = 'not_authorized' | 'already_claimed' | 'invalid_job_state' | 'step_finished';

// ---- steps ----------------------------------------------------------------------------------

export type StepAction = 'start' | 'complete' | 'fail' | 'reconcile';

export interface StepConditions {
  /** start: the step already runs under the caller's claim (a repeated start). */
  sameClaim?: boolean;
  /** fail: the failure is retryable and the step has attempts left (D25). */
  retry?: boolean;
}

/** `result`: the status the provider's result names (ready, partial or needs_review). */
type StepTarget = StepStatus | 'result' | 'unchanged';

export interface StepRule {
  action: StepAction;
  from: readonly StepStatus[];
  when?: keyof StepConditions;
  to?: StepTarget;
  /** Counts as a new attempt (a run of the step). */
  attempt?: boolean;
  event?: DiligenceStepEvent;
  refuse?: Refusal;
}

const UNFINISHED: readonly StepStatus[] = ['pending', 'running'];
const DONE: readonly StepStatus[] = [...FINISHED, 'failed'];

export const STEP_RULES: readonly StepRule[] = [
  // A repeated start under the same claim changes nothing; a start under a new claim (the old
  // lease expired) runs the step again.
  { action: 'start', from: ['running'], when: 'sameClaim', to: 'unchanged' },
  { action: 'start', from: UNFINISHED, to: 'running', attempt: true },
  { action: 'start', from: DONE, refuse: 'step_finished' },

  // A worker may complete or fail a step it did not start first: it ran it all the same.
  { action: 'complete', from: ['running'], to: 'result', event: 'completed' },
  { action: 'complete', from: ['pending'], to: 'result', attempt: true, event: 'completed' },
  { action: 'complete', from: DONE, refuse: 'step_finished' },

  { action: 'fail', from: UNFINISHED, when: 'retry', to: 'pending', event: 'failed' },
  { action: 'fail', from: UNFINISHED, to: 'failed', event: 'failed' },
  { action: 'fail', from: DONE, refuse: 'step_finished' },

  // Reconcile (D24) never retries and is never refused for the step's sake: an unfinished step
  // takes the confirmed result; a step that already has an outcome keeps it (only a new cost is
  // recorded).
  { action: 'reconcile', from: UNFINISHED, to: 'result', event: 'completed' },
  { action: 'reconcile', from: DONE, to: 'unchanged' },
];

export interface StepMove {
  to: StepStatus;
  changed: boolean;
  attempt: boolean;
  event?: DiligenceStepEvent;
}

export function moveStep(action: StepAction, from: StepStatus, conditions: StepConditions = {}, result?: ResultStatus): StepMove | { refuse: Refusal } {
  const rule = STEP_RULES.find((row) => row.action === action && row.from.includes(from) && (!row.when || conditions[row.when]));
  if (!rule || rule.refuse) return { refuse: rule?.refuse ?? 'step_finished' };
  const to = rule.to === 'unchanged' ? from : rule.to === 'result' ? result! : rule.to!;
  return { to, changed: rule.to !== 'unchanged', attempt: rule.attempt ?? false, ...(rule.event && { event: rule.event }) };
}

// ---- jobs -----------------------------------------------------------------------------------

/**
 * `step_retry`: a step failed and will be retried; `step_failed`: a step failed for good;
 * `step_done`: a step took a result or the job's recorded cost grew.
 */
export type JobAction = 'authorize' | 'claim' | 'step_retry' | 'step_failed' | 'step_done';

export interface JobConditions {
  /** claim: the job runs but its lease has expired (D23). */
  leaseExpired?: boolean;
  /** authorize: some step has no outcome yet, so a new budget lets the job go on. */
  stepsLeft?: boolean;
  /** step_done: the recorded cost exceeds max_cost_usd (D24). */
  overBudget?: boolean;
  /** step_done: every step has a result (ready, partial or needs_review). */
  allStepsDone?: boolean;
}

/** `outcome`: ready, partial or needs_review from the steps' results ({@link outcomeOf}). */
type JobTarget = JobStatus | 'outcome' | 'unchanged';

export interface JobRule {
  action: JobAction;
  from: readonly JobStatus[];
  when?: keyof JobConditions;
  to?: JobTarget;
  event?: DiligenceJobEvent;
  refuse?: Refusal;
}

const ACTIVE: readonly JobStatus[] = ['authorized', 'running'];

export const JOB_RULES: readonly JobRule[] = [
  // A budget is given to a queued job, changed while nobody holds it, or raised after the job
  // stopped on it (needs_review with steps left) so that it can go on.
  { action: 'authorize', from: ['queued', 'authorized'], to: 'authorized', event: 'authorized' },
  { action: 'authorize', from: ['needs_review'], when: 'stepsLeft', to: 'authorized', event: 'authorized' },
  { action: 'authorize', from: ['running', 'ready', 'partial', 'needs_review', 'failed'], refuse: 'invalid_job_state' },

  { action: 'claim', from: ['authorized'], to: 'running', event: 'claimed' },
  { action: 'claim', from: ['running'], when: 'leaseExpired', to: 'running', event: 'claimed' },
  { action: 'claim', from: ['running'], refuse: 'already_claimed' },
  { action: 'claim', from: ['queued'], refuse: 'not_authorized' },
  { action: 'claim', from: ['ready', 'partial', 'needs_review', 'failed'], refuse: 'invalid_job_state' },

  // Fail (D25) comes only from the claim holder, so the job is running.
  { action: 'step_retry', from: ['running'], to: 'authorized', event: 'authorized' },
  { action: 'step_failed', from: ['running'], to: 'failed', event: 'failed' },

  // A result or a cost: over budget the job stops for a person (the money is spent and recorded);
  // after the last step it takes the steps' outcome. A finished job only goes to needs_review
  // when a late (reconciled) cost takes it over budget.
  { action: 'step_done', from: ACTIVE, when: 'overBudget', to: 'needs_review', event: 'completed' },
  { action: 'step_done', from: ACTIVE, when: 'allStepsDone', to: 'outcome', event: 'completed' },
  { action: 'step_done', from: ACTIVE, to: 'unchanged' },
  { action: 'step_done', from: ['ready', 'partial'], when: 'overBudget', to: 'needs_review', event: 'completed' },
  { action: 'step_done', from: ['ready', 'partial', 'needs_review', 'failed'], to: 'unchanged' },
];

export interface JobMove {
  to: JobStatus;
  changed: boolean;
  event?: DiligenceJobEvent;
}

export function moveJob(action: JobAction, from: JobStatus, conditions: JobConditions = {}, steps: readonly StepStatus[] = []): JobMove | { refuse: Refusal } {
  const rule = JOB_RULES.find((row) => row.action === action && row.from.includes(from) && (!row.when || conditions[row.when]));
  if (!rule || rule.refuse) return { refuse: rule?.refuse ?? 'invalid_job_state' };
  const to = rule.to === 'unchanged' ? from : rule.to === 'outcome' ? outcomeOf(steps) : rule.to!;
  // Re-authorizing an authorized job is a change too (a new budget), so it is reported.
  return { to, changed: rule.to !== 'unchanged', ...(rule.event && { event: rule.event }) };
}

/** D22: all ready → ready; any needs_review → needs_review; else any partial → partial. */
export function outcomeOf(steps: readonly StepStatus[]): JobStatus {
  if (steps.includes('needs_review')) return 'needs_review';
  if (steps.includes('partial')) return 'partial';
  return 'ready';
}

export const isRefusal = <T extends object>(move: T | { refuse: Refusal }): move is { refuse: Refusal } => 'refuse' in move;
