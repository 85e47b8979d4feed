import type { Job, JobStep, PropertySubject, StepResult } from '../api-types.js';

/** What a provider gets for one run of one step. */
export interface StepInput {
  job: Job;
  step: JobStep;
  tenant: string;
  /** The property and its contacts, or null when the worker credential may not read them. */
  property: PropertySubject | null;
  /**
   * The id of this provider request: sent to HTTP providers as their idempotency key and recorded
   * as `provider_request_id` unless the provider names its own. Unique per run, so a retried step
   * never collides with the ledger row of an earlier run.
   */
  requestId: string;
}

/** Runs one kind of step. Throws {@link ProviderFailure} when it cannot produce a result. */
export interface StepProvider {
  readonly name: string;
  run(input: StepInput): Promise<StepResult>;
}

/** A provider could not produce a result; `retryable` decides whether the step is tried again (D25). */
export class ProviderFailure extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = 'ProviderFailure';
  }
}
