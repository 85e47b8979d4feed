import { describe, expect, it } from 'vitest';
import { JOB_STATUSES, type JobStatus } from './data-access/steps.js';
import type { StepStatus } from './schema.js';
import { moveJob, moveStep, outcomeOf, type JobAction, type JobConditions, type StepAction, type StepConditions } from './state-machine.js';

const STEP_STATUSES: StepStatus[] = ['pending', 'running', 'ready', 'partial', 'needs_review', 'failed'];

/** What a cell answers: a refusal code, or the state reached, whether it counts an attempt / changed, and the event. */
type Expected = string;

const showStep = (move: ReturnType<typeof moveStep>): Expected =>
  'refuse' in move ? `409 ${move.refuse}` : `${move.to}${move.changed ? '' : ' (unchanged)'}${move.attempt ? ' +attempt' : ''}${move.event ? ` !${move.event}` : ''}`;

const showJob = (move: ReturnType<typeof moveJob>): Expected =>
  'refuse' in move ? `409 ${move.refuse}` : `${move.to}${move.changed ? '' : ' (unchanged)'}${move.event ? ` !${move.event}` : ''}`;

/**
 * Every step action from every step status (D22, D24, D25). `partial` results are written to a
 * step completed with status partial; the table uses that as the provider's status.
 */
const STEP_TABLE: [StepAction, StepStatus, StepConditions, Expected][] = [
  ['start', 'pending', {}, 'running +attempt'],
  ['start', 'running', { sameClaim: true }, 'running (unchanged)'],
  ['start', 'running', { sameClaim: false }, 'running +attempt'],
  ['start', 'ready', {}, '409 step_finished'],
  ['start', 'partial', {}, '409 step_finished'],
  ['start', 'needs_review', {}, '409 step_finished'],
  ['start', 'failed', {}, '409 step_finished'],

  ['complete', 'pending', {}, 'partial +attempt !completed'],
  ['complete', 'running', {}, 'partial !completed'],
  ['complete', 'ready', {}, '409 step_finished'],
  ['complete', 'partial', {}, '409 step_finished'],
  ['complete', 'needs_review', {}, '409 step_finished'],
  ['complete', 'failed', {}, '409 step_finished'],

  ['fail', 'pending', { retry: true }, 'pending !failed'],
  ['fail', 'pending', { retry: false }, 'failed !failed'],
  ['fail', 'running', { retry: true }, 'pending !failed'],
  ['fail', 'running', { retry: false }, 'failed !failed'],
  ['fail', 'ready', { retry: true }, '409 step_finished'],
  ['fail', 'partial', {}, '409 step_finished'],
  ['fail', 'needs_review', {}, '409 step_finished'],
  ['fail', 'failed', { retry: true }, '409 step_finished'],

  // Reconcile is never refused for the step's sake and never retries (D24).
  ['reconcile', 'pending', {}, 'partial !completed'],
  ['reconcile', 'running', {}, 'partial !completed'],
  ['reconcile', 'ready', {}, 'ready (unchanged)'],
  ['reconcile', 'partial', {}, 'partial (unchanged)'],
  ['reconcile', 'needs_review', {}, 'needs_review (unchanged)'],
  ['reconcile', 'failed', {}, 'failed (unchanged)'],
];

const ALL_DONE: StepStatus[] = ['ready', 'partial', 'ready'];

/** Every job action from every job status (D22-D25). Steps for `outcome` are ready, partial, ready. */
const JOB_TABLE: [JobAction, JobStatus, JobConditions, Expected][] = [
  ['authorize', 'queued', {}, 'authorized !authorized'],
  ['authorize', 'authorized', {}, 'authorized !authorized'],
  ['authorize', 'running', {}, '409 invalid_job_state'],
  ['authorize', 'ready', {}, '409 invalid_job_state'],
  ['authorize', 'partial', {}, '409 invalid_job_state'],
  ['authorize', 'needs_review', { stepsLeft: true }, 'authorized !authorized'],
  ['authorize', 'needs_review', { stepsLeft: false }, '409 invalid_job_state'],
  ['authorize', 'failed', { stepsLeft: true }, '409 invalid_job_state'],

  ['claim', 'queued', {}, '409 not_authorized'],
  ['claim', 'authorized', {}, 'running !claimed'],
  ['claim', 'running', { leaseExpired: false }, '409 already_claimed'],
  ['claim', 'running', { leaseExpired: true }, 'running !claimed'],
  ['claim', 'ready', {}, '409 invalid_job_state'],
  ['claim', 'partial', {}, '409 invalid_job_state'],
  ['claim', 'needs_review', {}, '409 invalid_job_state'],
  ['claim', 'failed', {}, '409 invalid_job_state'],

  ['step_retry', 'running', {}, 'authorized !authorized'],
  ['step_retry', 'authorized', {}, '409 invalid_job_state'],
  ['step_failed', 'running', {}, 'failed !failed'],
  ['step_failed', 'queued', {}, '409 invalid_job_state'],

  ['step_done', 'running', {}, 'running (unchanged)'],
  ['step_done', 'running', { allStepsDone: true }, 'partial !completed'],
  ['step_done', 'running', { overBudget: true }, 'needs_review !completed'],
  ['step_done', 'running', { overBudget: true, allStepsDone: true }, 'needs_review !completed'],
  ['step_done', 'authorized', {}, 'authorized (unchanged)'],
  ['step_done', 'authorized', { allStepsDone: true }, 'partial !completed'],
  ['step_done', 'authorized', { overBudget: true }, 'needs_review !completed'],
  ['step_done', 'ready', {}, 'ready (unchanged)'],
  ['step_done', 'ready', { overBudget: true }, 'needs_review !completed'],
  ['step_done', 'partial', { overBudget: true }, 'needs_review !completed'],
  ['step_done', 'needs_review', { overBudget: true }, 'needs_review (unchanged)'],
  ['step_done', 'failed', { overBudget: true, allStepsDone: true }, 'failed (unchanged)'],
  ['step_done', 'queued', {}, '409 invalid_job_state'],
];

describe('the step state machine, cell by cell', () => {
  it.each(STEP_TABLE)('%s from %s %o → %s', (action, from, conditions, expected) => {
    expect(showStep(moveStep(action, from, conditions, 'partial'))).toBe(expected);
  });

  it('has a row for every action from every status', () => {
    for (const action of ['start', 'complete', 'fail', 'reconcile'] as const) {
      for (const status of STEP_STATUSES) expect(STEP_TABLE.some(([a, s]) => a === action && s === status), `${action} ${status}`).toBe(true);
    }
  });
});

describe('the job state machine, cell by cell', () => {
  it.each(JOB_TABLE)('%s from %s %o → %s', (action, from, conditions, expected) => {
    expect(showJob(moveJob(action, from, conditions, ALL_DONE))).toBe(expected);
  });

  it('has a row for authorize, claim and step_done from every status', () => {
    for (const action of ['authorize', 'claim'] as const) {
      for (const status of JOB_STATUSES) expect(JOB_TABLE.some(([a, s]) => a === action && s === status), `${action} ${status}`).toBe(true);
    }
  });
});

describe('the outcome of a job whose steps are all done (D22)', () => {
  it.each([
    [['ready', 'ready', 'ready'], 'ready'],
    [['ready', 'partial', 'ready'], 'partial'],
    [['partial', 'partial'], 'partial'],
    [['ready', 'needs_review'], 'needs_review'],
    [['partial', 'needs_review', 'ready'], 'needs_review'],
  ] as [StepStatus[], JobStatus][])('%o → %s', (steps, expected) => {
    expect(outcomeOf(steps)).toBe(expected);
  });
});
