// What other services may call in-process against the "diligence" schema (D20): the promotion
// transaction's job insert. (The board reads job status through the diligence.screen_statuses view.)
export { ensurePromotionJob, ensurePromotionJobs, type PromotionJobInput } from './promotion-job.js';
export { DEFAULT_STEPS } from './steps.js';
