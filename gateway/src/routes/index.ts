import { authRoutes } from './auth.js';
import { boardRoutes } from './board.js';
import { buyBoxRoutes } from './buyboxes.js';
import { catalogRoutes } from './catalog.js';
import { diligenceRoutes } from './diligence.js';
import { discoveryRoutes } from './discovery.js';
import { healthRoutes } from './health.js';
import { internalRoutes } from './internal.js';
import { leadRoutes } from './leads.js';
import { metricsRoutes } from './metrics.js';
import { parcelEvaluationRoutes } from './parcel-evaluation.js';
import { tileRoutes } from './tiles.js';
import type { RouteDef } from './route.js';

/** Every endpoint of both spec documents, then /metrics, in the order the OpenAPI document lists them. */
export const ROUTES: RouteDef[] = [
  ...authRoutes,
  ...buyBoxRoutes,
  ...discoveryRoutes,
  ...parcelEvaluationRoutes,
  ...boardRoutes,
  ...leadRoutes,
  ...diligenceRoutes,
  ...internalRoutes,
  ...catalogRoutes,
  ...tileRoutes,
  ...healthRoutes,
  ...metricsRoutes,
];

export type { GatewayDeps, RouteContext, RouteDef, RouteHandler, RouteResult } from './route.js';
