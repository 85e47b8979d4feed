// Plans, credits and the billed-request machinery of the catalog service (D34).
export { quoteCredits, signupGrantCredits, type CreditQuote } from './quote.js';
export { tenantAccount, setPlan, monthAllowance, UnknownPlanIdError, type TenantAccount } from './accounts.js';
export { chargeCredits, refundCredits, monthBalance, creditsByOperation, type Charge, type ChargeInput, type RefundInput, type MonthBalance, type Operation } from './ledger.js';
export { startRequest, type RateSlot, type RequestStart } from './request-start.js';
export { requestHash, IDEMPOTENCY_TTL_MS } from './idempotency.js';
export {
  BILLING_FAULTS,
  billedRequest,
  unbilledRequest,
  type AnswerCodec,
  type BilledAnswer,
  type BilledRequest,
  type BillingContext,
  type BillingStatus,
  type Price,
  type RequestStanding,
} from './billed-request.js';
export { insufficientCredits, rateLimited, idempotencyKeyReused } from './errors.js';
export { utcMonth } from './month.js';
export { billingStatusMessage } from './status-message.js';
