import type { Interceptor, Transport } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { tracingClientInterceptor } from '@landscreen/telemetry';

/**
 * A service reached over the network: Connect protocol, binary, one multiplexed HTTP/2 session.
 * Each call carries the caller's `traceparent` (when tracing is on).
 */
export function networkTransport(baseUrl: string, interceptors: Interceptor[] = []): Transport {
  return createConnectTransport({
    baseUrl,
    httpVersion: '2',
    useBinaryFormat: true,
    // Services sit next to the gateway: gzip would cost more CPU than the bytes it saves.
    acceptCompression: [],
    interceptors: [tracingClientInterceptor, ...interceptors],
  });
}

/**
 * A transport that resolves its target on each call: services get their peers while the
 * composition root is still building the router those peers are mounted on.
 */
export function deferredTransport(target: () => Transport): Transport {
  return {
    unary: (...args) => target().unary(...args),
    stream: (...args) => target().stream(...args),
  };
}
