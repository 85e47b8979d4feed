import type { Transport } from '@connectrpc/connect';
import type { Config } from '@landscreen/config';
import { CALLER_HEADER, replicaTransport, type ReplicaRouting } from '@landscreen/rpc';

/** Discovery's calls that write (buy boxes): never sent twice. */
const WRITES = new Set(['CreateBuyBox', 'ReplaceBuyBox', 'DeleteBuyBox']);
/** A draft larger than this is not read for its market (the call goes to any replica, which sends it on). */
const MAX_DRAFT_BYTES = 64 * 1024;

interface MarketScoped {
  market?: string;
  vintageId?: string;
  buyBox?: string;
  draftJson?: Uint8Array;
}

/**
 * What a discovery call is about, for routing it to the replica holding its market: the draft's
 * market, the market named, a vintage, or a saved buy box (the tenant's, by name) — whichever the
 * handler goes by, in that order. The answer names the market and its holder, so a buy box or a
 * vintage leads to its market's replica from the second call on.
 */
export const discoveryRouting: ReplicaRouting = {
  keyOf(_method, request, header) {
    const scoped = request as MarketScoped;
    const draftMarket = scoped.draftJson && scoped.draftJson.byteLength <= MAX_DRAFT_BYTES ? marketOfDraft(scoped.draftJson) : undefined;
    if (draftMarket) return draftMarket;
    if (scoped.market) return scoped.market;
    if (scoped.vintageId) return `vintage:${scoped.vintageId}`;
    if (scoped.buyBox) return `buy-box:${tenantOf(header)}:${scoped.buyBox}`;
    return undefined;
  },
  retryable: (method) => !WRITES.has(method.name),
};

/** Discovery as a caller reaches it: every replica of DISCOVERY_URL (or its port here), routed by market. */
export function discoveryTransport(config: Config): Transport {
  const urls = config.discovery.urls.length > 0 ? config.discovery.urls : [`http://127.0.0.1:${config.servicePorts.discovery}`];
  return replicaTransport(urls, discoveryRouting);
}

function marketOfDraft(draftJson: Uint8Array): string | undefined {
  try {
    const markets = (JSON.parse(Buffer.from(draftJson.buffer, draftJson.byteOffset, draftJson.byteLength).toString('utf8')) as { markets?: unknown }).markets;
    return Array.isArray(markets) && typeof markets[0] === 'string' ? markets[0] : undefined;
  } catch {
    return undefined;
  }
}

function tenantOf(header: Headers): string {
  const caller = header.get(CALLER_HEADER);
  if (!caller) return '';
  try {
    return (JSON.parse(Buffer.from(caller, 'base64url').toString('utf8')) as { tenantId?: string }).tenantId ?? '';
  } catch {
    return '';
  }
}
