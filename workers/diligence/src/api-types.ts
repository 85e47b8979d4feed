/**
 * The shapes the worker reads from the internal diligence API (spec "Diligence (internal)", the
 * job view of the diligence service). Only the fields the worker uses are named.
 */
export type JobStatus = 'queued' | 'authorized' | 'running' | 'ready' | 'partial' | 'needs_review' | 'failed';
export type StepStatus = 'pending' | 'running' | 'ready' | 'partial' | 'needs_review' | 'failed';
export type ResultStatus = 'ready' | 'partial' | 'needs_review';

export interface JobStep {
  name: string;
  position: number;
  status: StepStatus;
  attempts: number;
  provider: string | null;
  data: Record<string, unknown> | null;
  citations: Record<string, unknown>[];
  cost_usd: string;
  error: { code: string; message: string } | null;
}

export interface Job {
  id: string;
  status: JobStatus;
  property_id: string;
  pipeline_item_id: string;
  market_id: string;
  vintage_id: string;
  parcel_key: string;
  max_cost_usd: string | null;
  cost_usd: string;
  lease_expires_at: string | null;
  /** Authorized, or running on an expired lease: a claim would succeed. */
  claimable: boolean;
  steps: JobStep[];
  /** GET job only: the parcel as promoted, and the property's contacts on record. */
  parcel?: ParcelCandidate | null;
  contacts?: PropertyPage['contacts'];
}

export interface Claim {
  claim_token: string;
  lease_expires_at: string;
  job: Job;
}

export interface Spend {
  day: string;
  total_usd: string;
  rows: number;
  by_provider: Record<string, string>;
}

/** A step's result as complete and reconcile take it. */
export interface StepResult {
  status: ResultStatus;
  provider: string;
  provider_version?: string | null;
  provider_request_id?: string | null;
  data?: Record<string, unknown>;
  citations?: Record<string, unknown>[];
  /** Decimal string, at most 4 places. */
  cost_usd: string;
}

export interface StepFailure {
  code: string;
  message: string;
  retryable: boolean;
}

/** GET /v1/properties/{id}: what the built-in providers compute from (D28). */
export interface PropertyPage {
  property: {
    id: string;
    market: string;
    parcel_key: string;
    vintage_id: string;
    apn: string | null;
    address: string | null;
    lat: number | null;
    lon: number | null;
    acres: number | null;
    parcel: ParcelCandidate | null;
  };
  contacts: { id: string; contact: Record<string, unknown>; provider: string; created_at: string }[];
}

export interface ParcelCandidate {
  market: string;
  vintage_id: string;
  parcel_key: string;
  apn: string | null;
  address: string | null;
  lat: number | null;
  lon: number | null;
  geometry: { type: string } | null;
  typed: Record<string, unknown>;
  derived: Record<string, unknown>;
  free_facts: Record<string, unknown>;
}
