import type { DiligenceStep } from '@landscreen/api-schemas';
import type { diligencev1 } from '@landscreen/proto';
import { openJson } from './open-json.js';

const orNull = <T>(value: T | undefined): T | null => (value === undefined ? null : value);

/**
 * A diligence step as the internal API shows it (D22, D24, D25): the provider's raw data and
 * citations, its cost as a decimal string, the last failure; every absent field null.
 */
export function stepJson(step: diligencev1.Step): DiligenceStep {
  return {
    name: step.name,
    position: step.position,
    status: step.status as DiligenceStep['status'],
    attempts: step.attempts,
    provider: orNull(step.provider),
    provider_version: orNull(step.providerVersion),
    provider_request_id: orNull(step.providerRequestId),
    data: openJson(step.dataJson, null),
    citations: openJson(step.citationsJson, []),
    cost_usd: step.costUsd,
    error: step.error ? { code: step.error.code, message: orNull(step.error.message) } : null,
    started_at: orNull(step.startedAt),
    completed_at: orNull(step.completedAt),
  };
}
