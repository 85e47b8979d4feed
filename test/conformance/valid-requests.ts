/**
 * One VALID request per endpoint of both spec documents (and of the endpoints docs/design.md D33-D35
 * adds). Every bad-input row starts from one of these and changes one thing, so each of them must
 * pass validation: they are written from the spec's request tables and docs/design.md, not from the
 * gateway's schemas.
 */

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Req {
  method: Method;
  /** Concrete path (template parameters filled in). */
  path: string;
  query?: Record<string, string>;
  body?: unknown;
  /** Sent as-is instead of `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export const UUID_A = '3f1c2b9e-7d4a-4c1e-9b8f-2a6d5e4c3b21';
export const UUID_B = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
export const QUERY_HASH = 'a3f5'.repeat(16);

/**
 * A service token of the `conformance` tenant (D8) that the suite stores before it starts:
 * authentication comes before validation (D39), so the utility-findings rows need a real one.
 */
export const SERVICE_TOKEN = { id: '6b0e4a52-1c3d-4e5f-8a9b-0c1d2e3f4a5b', secret: 'conformance-service-secret' };

/** D7 dev session (the test stack runs with AUTH_DEV): lets implemented handlers go past authentication. */
export const SESSION_HEADERS: Record<string, string> = {
  authorization: 'Bearer dev:conformance@example.com:admin',
  'x-tenant': 'conformance',
};

/** A DiscoveryDraft using every field of the spec's table. */
export const DRAFT = {
  markets: ['travis-tx'],
  must: [{ field: 'acres', op: 'gte', value: 50, unknown: 'review' }],
  preferred: [{ field: 'nearest_substation_distance_m', op: 'lte', value: 3000, weight: 3 }],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};

const DILIGENCE = '/v1/internal/diligence';
const JOB = `${DILIGENCE}/jobs/${UUID_A}`;
const STEP = `${JOB}/steps/parcel_record`;

const withSession = (req: Omit<Req, 'headers'>): Req => ({ ...req, headers: { ...SESSION_HEADERS } });

/** Keyed by "METHOD /path/{template}". */
export const VALID = {
  // Authentication and session (spec) — D5, D6 give the bodies.
  'POST /v1/auth/request-link': { method: 'POST', path: '/v1/auth/request-link', body: { email: 'conformance@example.com', tenant: 'conformance' } },
  'POST /v1/auth/verify': { method: 'POST', path: '/v1/auth/verify', body: { token: 'q'.repeat(43) } },
  'POST /v1/auth/logout': withSession({ method: 'POST', path: '/v1/auth/logout' }),
  'GET /v1/me': withSession({ method: 'GET', path: '/v1/me' }),

  // Buy boxes — D9, D12.
  'GET /v1/buyboxes': withSession({ method: 'GET', path: '/v1/buyboxes' }),
  'POST /v1/buyboxes': withSession({
    method: 'POST',
    path: '/v1/buyboxes',
    body: { name: 'Conformance box', description: 'Fifty acres near a substation', spec: DRAFT },
  }),
  'PUT /v1/buyboxes/{name}': withSession({
    method: 'PUT',
    path: '/v1/buyboxes/Conformance%20box',
    body: { spec: DRAFT, description: null },
  }),
  'DELETE /v1/buyboxes/{name}': withSession({ method: 'DELETE', path: '/v1/buyboxes/Conformance%20box' }),
  'POST /v1/buyboxes/parse': withSession({
    method: 'POST',
    path: '/v1/buyboxes/parse',
    body: { text: 'market: travis-tx\nmust: acres >= 50\nprefer: nearest_substation_distance_m <= 3000 weight 3\npursue: 70\nmonitor: 40' },
  }),

  // Discovery (version 2).
  'POST /v2/discovery/query': withSession({
    method: 'POST',
    path: '/v2/discovery/query',
    body: { buy_box: 'Conformance box', draft: DRAFT, limit: 50, cursor: null },
  }),
  'POST /v2/discovery/export': withSession({
    method: 'POST',
    path: '/v2/discovery/export',
    query: { format: 'geojson' },
    body: { buy_box: 'Conformance box', draft: DRAFT, fields: ['acres', 'zoning'] },
  }),
  'GET /v2/discovery/export': withSession({ method: 'GET', path: '/v2/discovery/export', query: { buy_box: 'Conformance box', format: 'kml' } }),
  'POST /v2/parcels/resolve': withSession({
    method: 'POST',
    path: '/v2/parcels/resolve',
    body: { market: 'travis-tx', apn: '0123-456-78', address: null },
  }),
  'POST /v2/pipeline': withSession({
    method: 'POST',
    path: '/v2/pipeline',
    body: { parcel_key: 'travis-tx:0123456', buy_box: 'Conformance box', query_hash: QUERY_HASH, draft: null },
  }),
  'POST /v2/pipeline/direct': withSession({
    method: 'POST',
    path: '/v2/pipeline/direct',
    body: { parcel_key: 'travis-tx:0123456', buy_box: 'Conformance box', vintage_id: UUID_B },
  }),

  // Pipeline board (version 1) — D18.
  'GET /v1/pipeline': withSession({ method: 'GET', path: '/v1/pipeline', query: { stage: 'new', archived: 'false' } }),
  'POST /v1/pipeline': withSession({ method: 'POST', path: '/v1/pipeline', body: { property_id: UUID_A } }),
  'PATCH /v1/pipeline/{item_id}': withSession({
    method: 'PATCH',
    path: `/v1/pipeline/${UUID_A}`,
    body: { stage: 'researching', notes: 'Called the owner.', archived: false },
  }),

  // Leads, deliveries, properties — D28, D29, D30.
  'POST /v1/lead-requests': withSession({ method: 'POST', path: '/v1/lead-requests', body: { buy_box: 'Data center', count: 25, note: 'Fifty acres' } }),
  'GET /v1/lead-requests': withSession({ method: 'GET', path: '/v1/lead-requests' }),
  'POST /v1/leads/import': withSession({ method: 'POST', path: '/v1/leads/import', body: { market: 'travis-tx', rows: [{ ref: 'r1', apn: '0123-456-78' }] } }),
  'GET /v1/deliveries': withSession({ method: 'GET', path: '/v1/deliveries' }),
  'GET /v1/deliveries/{delivery_id}': withSession({ method: 'GET', path: `/v1/deliveries/${UUID_A}` }),
  'GET /v1/deliveries/{delivery_id}/pdf': withSession({ method: 'GET', path: `/v1/deliveries/${UUID_A}/pdf` }),
  'GET /v1/properties/{property_id}/pdf': withSession({ method: 'GET', path: `/v1/properties/${UUID_A}/pdf` }),
  'POST /v1/leads/find': withSession({
    method: 'POST',
    path: '/v1/leads/find',
    query: { limit: '100', count_only: 'true' },
    body: { buy_box: 'Conformance box', draft: DRAFT },
  }),
  'GET /v1/properties/{property_id}': withSession({ method: 'GET', path: `/v1/properties/${UUID_A}` }),
  'POST /v1/properties/{property_id}/reveal': withSession({
    method: 'POST',
    path: `/v1/properties/${UUID_A}/reveal`,
    body: { contact: { name: 'Jane Owner', phone: '+1 512 555 0100' }, provider: 'skiptrace-co', provider_request_id: 'req-1', cost_usd: '0.2500' },
  }),

  // Diligence (internal) — D22-D26.
  'GET /v1/internal/diligence/jobs': withSession({
    method: 'GET',
    path: `${DILIGENCE}/jobs`,
    query: { status: 'queued', limit: '20', offset: '0' },
  }),
  'GET /v1/internal/diligence/jobs/{job_id}': withSession({ method: 'GET', path: JOB }),
  'GET /v1/internal/diligence/spend': withSession({ method: 'GET', path: `${DILIGENCE}/spend`, query: { day: '2024-03-01' } }),
  'POST /v1/internal/diligence/jobs/{job_id}/authorize': withSession({
    method: 'POST',
    path: `${JOB}/authorize`,
    body: { max_cost_usd: '25.5000', note: 'Budget approved by the deal lead.' },
  }),
  'POST /v1/internal/diligence/jobs/{job_id}/claim': withSession({
    method: 'POST',
    path: `${JOB}/claim`,
    body: { worker_id: 'worker-1', lease_seconds: 600 },
  }),
  'POST /v1/internal/diligence/jobs/{job_id}/steps/{step}/start': withSession({
    method: 'POST',
    path: `${STEP}/start`,
    body: { claim_token: UUID_B },
  }),
  'POST /v1/internal/diligence/jobs/{job_id}/steps/{step}/complete': withSession({
    method: 'POST',
    path: `${STEP}/complete`,
    body: {
      status: 'ready',
      provider: 'regrid',
      provider_version: '2024.1',
      provider_request_id: 'req-42',
      data: { owner: 'Jane Owner', acres: 61.2 },
      citations: [{ url: 'https://example.com/record/42', title: 'County record' }],
      cost_usd: '1.2500',
      claim_token: UUID_B,
    },
  }),
  'POST /v1/internal/diligence/jobs/{job_id}/steps/{step}/fail': withSession({
    method: 'POST',
    path: `${STEP}/fail`,
    body: { claim_token: UUID_B, code: 'provider_timeout', message: 'The provider timed out.', retryable: true },
  }),
  'POST /v1/internal/diligence/jobs/{job_id}/steps/{step}/reconcile': withSession({
    method: 'POST',
    path: `${STEP}/reconcile`,
    body: {
      status: 'partial',
      provider: 'regrid',
      provider_version: null,
      provider_request_id: 'req-42',
      data: {},
      citations: [],
      cost_usd: 0.5,
      confirmed_no_retry: true,
    },
  }),

  // Other internal endpoints — D31.
  'POST /v1/internal/hosting-capacity/estimate': withSession({
    method: 'POST',
    path: '/v1/internal/hosting-capacity/estimate',
    body: {
      latitude: 30.2672,
      longitude: -97.7431,
      state: 'TX',
      utility_key: 'austin-energy',
      utility_name: 'Austin Energy',
      candidate_operators: ['ERCOT'],
    },
  }),
  'GET /v1/internal/utility-findings': {
    method: 'GET',
    path: '/v1/internal/utility-findings',
    headers: { authorization: `Bearer ${SERVICE_TOKEN.secret}`, 'x-service-token-id': SERVICE_TOKEN.id },
    query: { vintage_id: UUID_B, parcel_key: 'travis-tx:0123456' },
  },
  'GET /healthz': { method: 'GET', path: '/healthz' },
  'GET /readyz': { method: 'GET', path: '/readyz' },
  'GET /metrics': { method: 'GET', path: '/metrics' },

  // Point data catalog and pricing (spec) — D33-D35 give the shapes.
  'GET /v1/meta/plans': { method: 'GET', path: '/v1/meta/plans' },
  'GET /v1/meta/fields': { method: 'GET', path: '/v1/meta/fields', query: { layer: 'terrain' } },
  'GET /v1/meta/sources': { method: 'GET', path: '/v1/meta/sources' },
  'POST /v1/fetch/batch': withSession({
    method: 'POST',
    path: '/v1/fetch/batch',
    body: { locations: [{ lat: 30.2672, lon: -97.7431, id: 'site-1' }], fields: ['elevation', 'slope_degrees'], dry_run: true },
  }),
  'POST /v1/runs': withSession({
    method: 'POST',
    path: '/v1/runs',
    body: { locations: [{ lat: 30.2672, lon: -97.7431, id: 'site-1' }, { lat: 31, lon: -98 }], preset: 'solar_siting' },
  }),
  'GET /v1/runs': withSession({ method: 'GET', path: '/v1/runs' }),
  'GET /v1/runs/{run_id}': withSession({ method: 'GET', path: `/v1/runs/${UUID_A}` }),
  'GET /v1/runs/{run_id}/results': withSession({ method: 'GET', path: `/v1/runs/${UUID_A}/results`, query: { format: 'csv' } }),
  'DELETE /v1/runs/{run_id}': withSession({ method: 'DELETE', path: `/v1/runs/${UUID_A}` }),
  'POST /v1/lookup': withSession({
    method: 'POST',
    path: '/v1/lookup',
    body: { address: '100 Congress Ave, Austin, TX 78701', market: 'travis-tx', include_parcel: true },
  }),
  'GET /v1/usage': withSession({ method: 'GET', path: '/v1/usage' }),
  'POST /v1/auth/session': { method: 'POST', path: '/v1/auth/session', body: { token: 'a'.repeat(43) } },
  'GET /v2/parcels/{parcel_key}/evaluation': withSession({ method: 'GET', path: '/v2/parcels/p-1/evaluation', query: { buy_box: 'dc' } }),
  'GET /v1/tiles/parcels/{market}/{z}/{x}/{y}.mvt': withSession({ method: 'GET', path: '/v1/tiles/parcels/travis-tx/12/940/1680.mvt', query: { buy_box: 'dc' } }),
  'GET /v1/tiles/layers/{source}/{z}/{x}/{y}.mvt': withSession({ method: 'GET', path: '/v1/tiles/layers/hifld_substations/12/940/1680.mvt' }),
} satisfies Record<string, Req>;

export type EndpointKey = keyof typeof VALID;
export const ENDPOINTS = Object.keys(VALID) as EndpointKey[];

/** Endpoints whose request has a JSON body (spec request tables, docs/design.md shapes). */
export const BODY_ENDPOINTS = ENDPOINTS.filter((key) => (VALID[key] as Req).body !== undefined);

/**
 * Endpoints whose body is required: the two sign-in bodies the spec marks "(required)", every typed
 * request (their required fields cannot be met without a body) and the open objects docs/design.md gives
 * required fields (D9, D12, D28, D30, D34, D35). The spec does not mark the remaining open-object
 * bodies (leads find, pipeline add and patch) as required: those are left out.
 */
export const REQUIRED_BODY_ENDPOINTS: EndpointKey[] = BODY_ENDPOINTS.filter(
  (key) =>
    ![
      'POST /v1/leads/find',
      'POST /v1/pipeline',
      'PATCH /v1/pipeline/{item_id}',
    ].includes(key),
);

export const clone = <T>(value: T): T => structuredClone(value);
export const valid = (key: EndpointKey): Req => clone(VALID[key] as Req);
