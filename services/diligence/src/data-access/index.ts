// What other services may call in-process against the "diligence" schema (D20): the promotion
// transaction's job insert. (The board reads job status through the diligence.screen_statuses view.)
export { ensurePromotionJob, type PromotionJobInput } from './promotion-job.js';
export { recordEvent } from './outbox.js';
export { DEFAULT_STEPS, JOB_STATUSES, type JobStatus, type StepName } from './steps.js';
