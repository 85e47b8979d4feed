/**
 * The shapes the worker reads from the REST API: the gateway's declared response schemas
 * (@landscreen/api-schemas, spec "Diligence (internal)" and D28), one declaration shared with the
 * route table, /openapi.json and the tests — never re-declared here. The requests the worker sends
 * (a step's result, a failure) are its own.
 */
import type {
  ClaimResponse,
  Contact,
  DiligenceJob,
  DiligenceJobDetail,
  DiligenceStep,
  StoredParcel as DeclaredParcelCandidate,
  PropertyPage as DeclaredPropertyPage,
  SpendResponse,
} from '@landscreen/api-schemas';

/** A job as every job route answers it (no parcel, no contacts). */
export type Job = DiligenceJob;
export type JobStep = DiligenceStep;
export type JobStatus = Job['status'];
export type StepStatus = JobStep['status'];
export type ResultStatus = Extract<StepStatus, 'ready' | 'partial' | 'needs_review'>;

export type ParcelCandidate = DeclaredParcelCandidate;

/** GET job: the job with the parcel as promoted (a ParcelCandidate, or null) and the property's contacts. */
export type JobDetail = Omit<DiligenceJobDetail, 'parcel'> & { parcel: ParcelCandidate | null };

/** POST claim (D23): the token, its lease and the job. */
export type Claim = ClaimResponse;

/** GET spend (D26). */
export type Spend = SpendResponse;

/** GET /v1/properties/{id} (D28): the property page. */
export type PropertyPage = DeclaredPropertyPage;

/**
 * What the built-in providers compute from: the parts of the property page they read — the
 * property's place and parcel, and its contacts. GET job gives the same without reading the page
 * (a worker may not, D8), so either fills it.
 */
export interface PropertySubject {
  property: Pick<PropertyPage['property'], 'id' | 'market' | 'parcel_key' | 'vintage_id' | 'apn' | 'address' | 'lat' | 'lon' | 'acres'> & {
    parcel: ParcelCandidate | null;
  };
  contacts: Contact[];
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
