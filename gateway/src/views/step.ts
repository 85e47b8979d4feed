import type { DiligenceStep } from '@landscreen/api-schemas';
import type { diligencev1 } from '@landscreen/proto';
import { nullIfAbsent } from '@landscreen/rpc';
import { openJson } from './open-json.js';

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
    provider: nullIfAbsent(step.provider),
    provider_version: nullIfAbsent(step.providerVersion),
    provider_request_id: nullIfAbsent(step.providerRequestId),
    data: openJson(step.dataJson, null),
    citations: openJson(step.citationsJson, []),
    cost_usd: step.costUsd,
    error: step.error ? { code: step.error.code, message: nullIfAbsent(step.error.message) } : null,
    started_at: nullIfAbsent(step.startedAt),
    completed_at: nullIfAbsent(step.completedAt),
  };
}
