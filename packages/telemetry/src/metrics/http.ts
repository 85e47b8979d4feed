import { Histogram } from 'prom-client';

/**
 * Requests the gateway answered, by route pattern (`/v1/runs/:id`, never the raw URL, so the
 * series stay bounded), method and status. Its `_count` is the request rate.
 */
export const httpRequestSeconds = new Histogram({
  name: 'landscreen_http_request_duration_seconds',
  help: 'Time the gateway took to answer a request, by route pattern, method and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
});

/** Connect/gRPC calls a service answered over the network, by method and Connect code. */
export const rpcServerSeconds = new Histogram({
  name: 'landscreen_rpc_server_duration_seconds',
  help: 'Time a service took to answer a Connect or gRPC call, by method and code',
  labelNames: ['method', 'code'] as const,
  buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
});
