import { createClient, type Client, type HandlerContext, type Transport } from '@connectrpc/connect';
import { discoveryv1 } from '@landscreen/proto';
import { isUnanswered, networkTransport, onBehalfOf, REPLICA_HEADER, ROUTE_HEADER } from '@landscreen/rpc';
import { marketMoving, type MarketRef, type Route } from './placement.js';

/** Set on a request one replica sends on to another: the receiver answers it or refuses, never sends it on again. */
export const FORWARDED_HEADER = 'x-landscreen-forwarded';
/** On an answer: the market it is about (its slug: the routing key), and the replica holding it, where the caller's next request for it may go straight (replicaTransport). */
const MARKET_HEADER = ROUTE_HEADER;

type RemoteRoute = Extract<Route, { local: false }>;
type DiscoveryClient = Client<typeof discoveryv1.DiscoveryService>;
export type DiscoveryMethod = Exclude<keyof DiscoveryClient, symbol>;

/** Thrown where a request needs a market this replica does not hold: the RPC is sent, whole, to the replica that does. */
export class MarketElsewhere extends Error {
  constructor(
    readonly market: MarketRef,
    readonly route: RemoteRoute,
  ) {
    super(`market ${market.slug} is held at ${route.url}`);
  }
}

export const isForwarded = (call: HandlerContext) => call.requestHeader.get(FORWARDED_HEADER) === '1';

/** Marks an answer with the market and the replica that answered it (when replicas share markets). */
export function markAnswered(call: HandlerContext, market: MarketRef, replicaUrl: string | undefined): void {
  if (replicaUrl === undefined) return;
  call.responseHeader.set(MARKET_HEADER, market.slug);
  call.responseHeader.set(REPLICA_HEADER, replicaUrl);
}

/**
 * Sends requests on to the discovery replica holding their market, as the same caller, within the
 * same deadline. A replica that does not answer (it died, and its lease has not lapsed yet) makes
 * the answer 503 `market_moving` with Retry-After, never an answer computed elsewhere from
 * partial state; whatever the holder answers (a 404, a 422) is passed on as it is.
 */
export class Forwarder {
  private readonly clients = new Map<string, DiscoveryClient>();

  constructor(
    /** Reads the placement again (after a holder did not answer). */
    private readonly refresh: () => Promise<void>,
    private readonly transportFor: (url: string) => Transport = networkTransport,
  ) {}

  /**
   * Wraps a handler: a MarketElsewhere it throws becomes the same RPC sent to the holder. When the
   * holder does not answer, the placement is read again and the handler tried once more: a holder
   * that left cleanly has freed its markets, and the request is answered here or by their new
   * holder; one that died still holds them until its lease lapses (503 market_moving meanwhile).
   */
  wrap<Request, Response>(method: DiscoveryMethod, handler: (request: Request, call: HandlerContext) => Promise<Response>) {
    return async (request: Request, call: HandlerContext): Promise<Response> => {
      let unanswered: string | undefined;
      for (;;) {
        try {
          return await handler(request, call);
        } catch (error) {
          if (!(error instanceof MarketElsewhere)) throw error;
          if (error.route.url === unanswered) throw moving(error);
          try {
            return (await this.sendOnce(error.route, method, request, call)) as Response;
          } catch (sent) {
            if (!isUnanswered(sent) || call.signal.aborted) throw sent;
            if (unanswered !== undefined) throw moving(error);
            unanswered = error.route.url;
            await this.refresh().catch(() => undefined);
          }
        }
      }
    };
  }

  /** One RPC to the replica of `route`, for `market`, on behalf of the call's caller; 503 market_moving if it does not answer. */
  async send(route: RemoteRoute, market: MarketRef, method: DiscoveryMethod, request: unknown, call: HandlerContext): Promise<unknown> {
    try {
      return await this.sendOnce(route, method, request, call);
    } catch (error) {
      if (!isUnanswered(error) || call.signal.aborted) throw error;
      void this.refresh().catch(() => undefined);
      throw moving(new MarketElsewhere(market, route));
    }
  }

  private async sendOnce(route: RemoteRoute, method: DiscoveryMethod, request: unknown, call: HandlerContext): Promise<unknown> {
    const client = this.client(route.url);
    const { headers, signal } = onBehalfOf(call);
    const call_ = client[method] as (request: unknown, options: object) => Promise<unknown>;
    return call_(request, {
      headers: { ...headers, [FORWARDED_HEADER]: '1' },
      signal,
      timeoutMs: call.timeoutMs(),
      onHeader: (answer: Headers) => {
        for (const name of [MARKET_HEADER, REPLICA_HEADER]) {
          const value = answer.get(name);
          if (value) call.responseHeader.set(name, value);
        }
      },
    });
  }

  private client(url: string): DiscoveryClient {
    let client = this.clients.get(url);
    if (!client) this.clients.set(url, (client = createClient(discoveryv1.DiscoveryService, this.transportFor(url))));
    return client;
  }
}


/** 503 market_moving for a holder that did not answer: retry once its lease can have lapsed. */
function moving(elsewhere: MarketElsewhere) {
  const leaseLeftS = elsewhere.route.leaseExpiresAt ? (elsewhere.route.leaseExpiresAt.getTime() - Date.now()) / 1000 : 0;
  return marketMoving(elsewhere.market, leaseLeftS + 1);
}
