/**
 * How many bytes of body each route reads before answering 413 `payload_too_large` (Fastify's
 * per-route `bodyLimit`). Each is sized to the largest legitimate body of its route under the
 * spec's limits, so that nobody can make the gateway buffer and parse more than a real client
 * would send: the unauthenticated sign-in routes above all (a 16 MB body there used to hold the
 * event loop for 1.8 s). docs/decisions.md, "Body limits per route".
 */
const KiB = 1024;
const MiB = 1024 * KiB;

export const BODY_LIMITS = Object.freeze({
  /** Sign-in (`email`, `tenant`, `token`: under 1 KB) and every route that takes no body. */
  small: 8 * KiB,
  /** The default of a route with a JSON body (the parse text: 20,000 characters, at most 120 KB). */
  standard: 1 * MiB,
  /** A route carrying a buy-box draft: 100 rules whose `in` lists hold up to 1,000 values each. */
  draft: 4 * MiB,
  /** Complete and reconcile: a provider's `data` (no limit in the spec) and up to 100 citations. */
  providerResult: 8 * MiB,
  /** Lead import: up to 10,000 rows of ref, apn (255), address (500), lat and lon. */
  leadImport: 16 * MiB,
  /** A batch run: up to 100,000 locations of lat, lon and an id of up to 128 characters. */
  run: 32 * MiB,
});

/** The limit of everything Fastify answers outside the routes (404s, /docs assets). */
export const DEFAULT_BODY_LIMIT = BODY_LIMITS.standard;
