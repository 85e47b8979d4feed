import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ReportRenderer } from '../reports/render-pool.js';
import type { BodyCodecName } from './body-decoders.js';
import type { Caller, Clock } from '@landscreen/rpc';
import type { ServiceClients } from '../clients.js';
import type { Role } from './roles.js';
import type { RequestSchemas, Schema, ValidRequest } from '../validation/index.js';

export interface GatewayDeps {
  clients: ServiceClients;
  /** Build identifier shown by /healthz. */
  build: string;
  /** The time a report says it was generated at (the stack's injected clock). */
  clock: Clock;
  /** D40: a MapLibre style URL the console draws under its map (BASEMAP_STYLE_URL); absent: the outlines it serves. */
  basemapStyleUrl?: string;
  /** METRICS_TOKEN: the bearer token `GET /metrics` asks for; absent, the metrics are open. */
  metricsToken?: string;
}

export interface RouteContext {
  request: ValidRequest;
  /** The authenticated caller; absent on routes whose security is `none`. */
  caller: Caller | undefined;
  raw: FastifyRequest;
  reply: FastifyReply;
  deps: GatewayDeps;
  /** Renders PDF reports on the gateway's worker threads. */
  reports: ReportRenderer;
}

export interface RouteResult {
  status: number;
  body?: unknown;
  /** A JSON body already encoded by a service: sent as it is. */
  json?: Uint8Array;
  headers?: Record<string, string>;
  /** Set-Cookie values (the console's session, D40). */
  cookies?: string[];
}

export type RouteHandler = (context: RouteContext) => Promise<RouteResult>;

export interface ResponseSpec {
  description: string;
  /** The JSON body's schema (every JSON answer declares one). */
  schema?: Schema;
  /** Defaults to application/json; a file answer may come in several types (the first is the default). */
  contentType?: string | readonly string[];
  /** Files the same answer may also be, by a `format` parameter (D40 exports): binary, beside the JSON. */
  alsoFiles?: readonly string[];
}

/**
 * One endpoint of the public contract: its path, who may call it, its complete request schemas
 * (validated once the caller is authenticated and allowed, D1, D39) and, once its service exists,
 * its handler. A route without a handler answers 501 `not_implemented` after validating.
 */
export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** OpenAPI-style path, e.g. `/v1/buyboxes/{name}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tag: string;
  /** How the caller authenticates; `none` for sign-in and health. */
  security: 'session' | 'service-token' | 'none';
  /** D8: the roles allowed (docs/roles.md). A service-token route also admits service tokens. */
  roles?: Role[];
  /**
   * The route acts on the session itself (logout): a session of several tenants needs no X-Tenant
   * here (its first membership is taken) rather than being refused as tenant_required (D3).
   */
  anyTenant?: boolean;
  request: RequestSchemas;
  /** Bytes of body read before 413; by default BODY_LIMITS.standard with a body, else .small. */
  bodyLimit?: number;
  responses: Record<number, ResponseSpec>;
  handler?: RouteHandler;
  /**
   * How a body that is not plain JSON becomes what the body schema validates (POST /v1/runs: a
   * CSV, GeoJSON or NDJSON upload named by its Content-Type); see body-decoders.ts.
   */
  bodyDecoder?: BodyCodecName;
  /** Hidden from the OpenAPI document (the docs page's own assets). */
  hidden?: boolean;
}
