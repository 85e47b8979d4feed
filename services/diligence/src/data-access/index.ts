// What other services may call in-process against the "diligence" schema (D20): the promotion
// transaction's job insert, and the type of the diligence.screen_statuses view the board reads.
export { ensurePromotionJob, ensurePromotionJobs, type PromotionJobInput } from './promotion-job.js';
export { DEFAULT_STEPS } from './steps.js';
export type { ScreenStatusesView } from '../schema.js';
