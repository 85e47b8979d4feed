import { normaliseDraft, type CanonicalSpec } from '@landscreen/buybox-spec';
import { validationError, type ValidationIssue } from '@landscreen/rpc';
import { knownFieldsOf } from './fields.js';
import type { DiscoveryDb } from './schema.js';

/**
 * A draft from a request, normalised into the canonical spec (D10, D11); problems answer 422 with
 * each issue's loc under `locPrefix` (e.g. ["body", "spec"]).
 */
export async function canonicalSpecFrom(db: DiscoveryDb, draft: unknown, locPrefix: (string | number)[]): Promise<CanonicalSpec> {
  const market = (draft as { markets?: unknown[] })?.markets?.[0];
  const knownField = await knownFieldsOf(db, typeof market === 'string' ? market : undefined);
  const result = normaliseDraft(draft as never, { knownField });
  if ('issues' in result) {
    throw validationError(result.issues.map((issue: ValidationIssue) => ({ ...issue, loc: [...locPrefix, ...issue.loc] })));
  }
  return result.spec;
}

