import { Gauge } from 'prom-client';

interface DiscoveryMemorySource {
  /** Bytes of market indexes the process holds (its memory budget's count). */
  indexBytes(): number;
  /** Markets the replica holds; undefined when it is the only replica (it holds them all). */
  marketsHeld(): number | undefined;
}

let source: DiscoveryMemorySource | undefined;

/** What a discovery process holds in memory, read at scrape time; per process (sum them for a deployment). */
export const discoveryIndexBytes = new Gauge({
  name: 'landscreen_discovery_index_bytes',
  help: 'Bytes of market indexes (ranking columns, parcel shapes, rankings, map views) this discovery process holds, as its DISCOVERY_MEMORY_BUDGET counts them',
  collect() {
    if (source) this.set(source.indexBytes());
  },
});

export const discoveryMarketsHeld = new Gauge({
  name: 'landscreen_discovery_markets_held',
  help: 'Markets this discovery replica holds by lease (absent when one replica holds them all)',
  collect() {
    const held = source?.marketsHeld();
    if (held !== undefined) this.set(held);
  },
});

/** Where the gauges read from; the discovery service sets it when it is built. */
export function reportDiscoveryMemoryFrom(from: DiscoveryMemorySource | undefined): void {
  source = from;
}
