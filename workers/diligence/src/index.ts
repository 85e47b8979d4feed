export { startDiligenceWorker, WORKER_DURABLE, WORKER_SUBJECTS, type DiligenceWorker, type DiligenceWorkerOptions } from './worker.js';
export { ApiError, TenantApi, apiClient, isApiError } from './api-client.js';
export type { Claim, Job, JobDetail, JobStep, PropertyPage, PropertySubject, Spend, StepResult } from './api-types.js';
export { DailyBudget } from './budget.js';
export { formatUsd, parseUsd } from './money.js';
export { BUILTIN_PROVIDER, BUILTIN_PROVIDERS, ProviderFailure, httpProvider, providerRegistry, type StepInput, type StepProvider } from './providers/index.js';
