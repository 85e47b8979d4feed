import { Code, ConnectError, type Transport } from '@connectrpc/connect';
import type { DescMethod } from '@bufbuild/protobuf';
import { commonv1 } from '@landscreen/proto';
import { networkTransport } from './transports.js';

/** On an answer: the routing key of what it was about, and the replica holding that (its address). */
export const ROUTE_HEADER = 'x-landscreen-market';
export const REPLICA_HEADER = 'x-landscreen-replica';

/** How calls of one service are routed among its replicas. */
export interface ReplicaRouting {
  /**
   * What a call is about, as far as the request shows (a market, a saved buy box): the answer says
   * which routing key that is and which replica holds it, and the next call about it goes there
   * straight. Undefined: any replica.
   */
  keyOf(method: DescMethod, request: unknown, header: Headers): string | undefined;
  /** Whether a call may go to another replica when the first did not answer at all (reads only). */
  retryable(method: DescMethod): boolean;
}

/** Routes remembered, each way; the oldest go first. */
const MAX_ROUTES = 10_000;
/** A replica that did not answer is tried last for this long. */
const DOWN_MS = 5_000;

/**
 * A transport over the replicas of a service, any of which answers any call (the one that does
 * not hold what the call is about sends it on to the one that does). It starts from the replicas
 * it is given, in turn, and learns from each answer's headers which replica holds what the call
 * was about, so the next call about it goes straight there — a replica added later included. A
 * replica that does not answer is forgotten and, for a read, the call goes to the next one. A
 * route learned wrong (the market moved meanwhile) costs one hop, never a wrong answer.
 */
export function replicaTransport(urls: readonly string[], routing: ReplicaRouting, transportFor: (url: string) => Transport = networkTransport): Transport {
  if (urls.length === 0) throw new Error('a replicated service needs at least one address');
  const transports = new Map<string, Transport>();
  const transportOf = (url: string) => {
    let transport = transports.get(url);
    if (!transport) transports.set(url, (transport = transportFor(url)));
    return transport;
  };
  /** A request's key → the routing key its answer named (a buy box → its market). */
  const aliases = new Map<string, string>();
  /** Routing key → the replica holding it. */
  const holders = new Map<string, string>();
  /** Replicas that did not answer lately → until when they are tried last. */
  const down = new Map<string, number>();
  let turn = 0;

  const remember = (map: Map<string, string>, key: string, value: string) => {
    map.delete(key);
    map.set(key, value);
    if (map.size > MAX_ROUTES) map.delete(map.keys().next().value!);
  };
  const forget = (url: string) => {
    for (const [key, holder] of holders) if (holder === url) holders.delete(key);
    down.set(url, Date.now() + DOWN_MS);
  };
  const isDown = (url: string) => (down.get(url) ?? 0) > Date.now();
  const targets = (key: string | undefined): string[] => {
    const start = turn++ % urls.length;
    const seeds = [...urls.slice(start), ...urls.slice(0, start)];
    const holder = key === undefined ? undefined : holders.get(aliases.get(key) ?? key);
    const order = holder === undefined ? seeds : [holder, ...seeds.filter((url) => url !== holder)];
    return [...order.filter((url) => !isDown(url)), ...order.filter(isDown)];
  };

  return {
    async unary(method, signal, timeoutMs, header, input, contextValues) {
      const headers = new Headers(header);
      const key = routing.keyOf(method, input, headers);
      const order = targets(key);
      for (let attempt = 0; ; attempt++) {
        const url = order[attempt]!;
        try {
          const response = await transportOf(url).unary(method, signal, timeoutMs, headers, input, contextValues);
          down.delete(url);
          const route = response.header.get(ROUTE_HEADER);
          const replica = response.header.get(REPLICA_HEADER);
          if (route && replica) {
            remember(holders, route, replica);
            if (key !== undefined && key !== route) remember(aliases, key, route);
          }
          return response;
        } catch (error) {
          if (!isUnanswered(error)) throw error;
          forget(url);
          if (attempt + 1 >= order.length || !routing.retryable(method) || signal?.aborted) throw error;
        }
      }
    },
    // No streaming RPC is routed by key: the stream goes to the next replica in turn.
    stream(method, signal, timeoutMs, header, input, contextValues) {
      return transportOf(targets(undefined)[0]!).stream(method, signal, timeoutMs, header, input, contextValues);
    },
  };
}

/**
 * The replica did not answer (refused: Unavailable; the connection reset under the call: Aborted;
 * the process died and its HTTP/2 session ended with the call in it: Canceled, unless the caller
 * cancelled, which callers check first; the stream failed under the call: a transport error), as
 * opposed to answering an error of its own, which always carries its detail.
 */
export function isUnanswered(error: unknown): boolean {
  const connectError = ConnectError.from(error);
  if (connectError.findDetails(commonv1.ErrorDetailSchema).length > 0) return false;
  return [Code.Unavailable, Code.Aborted, Code.Canceled].includes(connectError.code) || isTransportFailure(connectError);
}

/**
 * The call failed in the transport itself: connect-node raised it from a Node.js stream or socket
 * error (its cause carries Node's error code, e.g. ERR_HTTP2_STREAM_ERROR for a stream reset with
 * INTERNAL_ERROR), whatever Connect code it was given. An answer decoded from a peer never has one.
 */
export function isTransportFailure(error: unknown): boolean {
  const { cause } = ConnectError.from(error);
  return typeof cause === 'object' && cause !== null && typeof (cause as { code?: unknown }).code === 'string' && /^(ERR_HTTP2_|ERR_STREAM_|E[A-Z]+$)/.test((cause as { code: string }).code);
}
