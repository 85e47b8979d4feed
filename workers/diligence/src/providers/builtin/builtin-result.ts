import type { ResultStatus, StepResult } from '../../api-types.js';
import { ZERO_USD } from '../../money.js';
import type { StepInput } from '../provider.js';

/** The built-in providers' name and version, as recorded on each step they complete. */
export const BUILTIN_PROVIDER = 'landscreen-builtin';
export const BUILTIN_VERSION = '1';

/**
 * A built-in result: computed from facts already stored (no outside call), so it costs nothing.
 * `summary` is the line the property page quotes to customers (D28).
 */
export function builtinResult(input: StepInput, status: ResultStatus, summary: string, data: Record<string, unknown>, citations: Record<string, unknown>[]): StepResult {
  return {
    status,
    provider: BUILTIN_PROVIDER,
    provider_version: BUILTIN_VERSION,
    provider_request_id: input.requestId,
    data: { summary, ...data },
    citations,
    cost_usd: ZERO_USD,
  };
}

/** Where the facts came from: the parcel as loaded in its vintage. */
export function vintageCitation(input: StepInput, fields?: string[]): Record<string, unknown> {
  return {
    source: 'parcel_vintage',
    market: input.property?.property.market ?? null,
    vintage_id: input.job.vintage_id,
    parcel_key: input.job.parcel_key,
    ...(fields && { fields }),
  };
}

/** The facts of the property's parcel: typed, catalog (derived) and free, in one lookup. */
export function parcelFacts(input: StepInput): Record<string, unknown> | null {
  const parcel = input.property?.property.parcel;
  if (!parcel) return null;
  return { ...parcel.free_facts, ...parcel.derived, ...parcel.typed };
}

/** The named facts that are present (not null, not undefined), in the order asked. */
export function presentFacts(facts: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const present: Record<string, unknown> = {};
  for (const name of names) if (facts[name] !== null && facts[name] !== undefined) present[name] = facts[name];
  return present;
}

/** The answer when the parcel's facts cannot be read: a person has to look. */
export function noFacts(input: StepInput, what: string) {
  return builtinResult(
    input,
    'needs_review',
    `${what}: the parcel's stored facts were not available to the worker.`,
    { parcel_key: input.job.parcel_key, vintage_id: input.job.vintage_id },
    [],
  );
}

export const km = (meters: unknown) => (typeof meters === 'number' ? `${(meters / 1000).toFixed(1)} km` : 'an unknown distance');
