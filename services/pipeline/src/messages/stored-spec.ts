import { create } from '@bufbuild/protobuf';
import { discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';

/**
 * A stored applied spec (a match's or a delivery's) as the BuyBoxSpec message discovery answered
 * it as. Undefined when nothing is stored.
 */
export function storedSpecMessage(stored: unknown): discoveryv1.BuyBoxSpec | undefined {
  if (stored === null || stored === undefined) return undefined;
  return discoveryjson.buyBoxSpecMessage(stored as discoveryjson.BuyBoxSpecJsonShape);
}

interface StoredMustEvidence {
  field: string;
  value: unknown;
  status: string;
}
interface StoredPreferredEvidence {
  field: string;
  value: unknown;
  weight: number;
  contribution: number;
}

/** Stored must evidence (a match's `failed`, a breakdown's `must`) as MustEvidence messages. */
export function storedMustEvidence(stored: unknown): discoveryv1.MustEvidence[] {
  if (!Array.isArray(stored)) return [];
  return (stored as StoredMustEvidence[]).map((evidence) =>
    create(discoveryv1.MustEvidenceSchema, { field: evidence.field, value: discoveryjson.valueOf(evidence.value), status: evidence.status }),
  );
}

/** A stored evaluation's score_breakdown as the ScoreBreakdown message; undefined when it has none. */
export function storedScoreBreakdown(stored: unknown): discoveryv1.ScoreBreakdown | undefined {
  if (stored === null || typeof stored !== 'object') return undefined;
  const breakdown = stored as { must?: unknown; preferred?: StoredPreferredEvidence[] };
  return create(discoveryv1.ScoreBreakdownSchema, {
    must: storedMustEvidence(breakdown.must),
    preferred: (breakdown.preferred ?? []).map((evidence) => ({
      field: evidence.field,
      value: discoveryjson.valueOf(evidence.value),
      weight: evidence.weight,
      contribution: evidence.contribution,
    })),
  });
}
