import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { ServiceDeps, ServiceModule } from '@landscreen/rpc';
import { reportDiscoveryMemoryFrom } from '@landscreen/telemetry';
import { discoveryRoutes } from './connect.js';
import { cursorSecretLoader, type DiscoveryContext } from './context.js';
import { buyBoxHandlers } from './handlers/buy-boxes.js';
import { evaluateParcelHandler } from './handlers/evaluate-parcel.js';
import { findLeadsHandler } from './handlers/find-leads.js';
import { geocodeAddressHandler } from './handlers/geocode-address.js';
import { getParcelHandler } from './handlers/get-parcel.js';
import { locateParcelsHandler } from './handlers/locate-parcels.js';
import { queryHandler } from './handlers/query.js';
import { resolveHandler } from './handlers/resolve.js';
import { resolveParcelsHandler } from './handlers/resolve-parcels.js';
import { parcelTileHandler } from './handlers/parcel-tile.js';
import { discoveryHealth } from './health.js';
import { loadParcelIndex } from './locate/load-parcel-index.js';
import { ParcelIndexes } from './locate/parcel-indexes.js';
import { MarketIndexes } from './market-indexes.js';
import { IndexMemory } from './memory/index-memory.js';
import { migrations } from './migrations/index.js';
import { Forwarder } from './placement/forward.js';
import { LeasedPlacement } from './placement/leased-placement.js';
import { SoloPlacement, type MarketPlacement } from './placement/placement.js';
import { IndexCache } from './ranking/index-cache.js';
import { indexLoader } from './ranking/index-loader.js';
import { Ranker } from './ranking/ranker.js';
import { discoveryDb, SCHEMA, type DiscoveryDb } from './schema.js';
import { TileViews } from './tiles/tile-views.js';
import { IndexWarmup } from './warm-up.js';

export function createDiscoveryService(deps: ServiceDeps): ServiceModule {
  const logger = deps.logger.child({ service: 'discovery' });
  const db = discoveryDb(deps.db);
  const cacheDir = deps.config.discoveryCacheDir ?? path.join(deps.config.dataDir, 'discovery-cache');
  const cache = cacheDir === false ? undefined : new IndexCache(cacheDir, logger);
  const memory = new IndexMemory(deps.config.discovery.memoryBudgetBytes, logger);
  const ranker = new Ranker(indexLoader({ db, cache, logger, faults: deps.faults }), memory);
  // Read (stored by the import) after the ranking indexes at start, in the background, or on the
  // first LocateParcels or map tile that needs a vintage warm-up did not load.
  const parcelIndexes = new ParcelIndexes((vintageId) => loadParcelIndex(db, vintageId, { logger, faults: deps.faults }), memory, logger);
  const placement = placementOf(deps, db);
  const forwarder = new Forwarder(() => placement.refresh());
  const context: DiscoveryContext = {
    db,
    clock: deps.clock,
    config: deps.config,
    logger,
    ranker,
    indexes: new MarketIndexes(placement, ranker, parcelIndexes),
    cursorSecret: cursorSecretLoader(db),
  };
  reportDiscoveryMemoryFrom({ indexBytes: () => memory.total(), marketsHeld: () => placement.held()?.length });
  const warmup = new IndexWarmup({ db, ranker, cache, logger, faults: deps.faults, parcelIndexes, placement, memory });
  // Markets taken on load in the background; markets given up leave memory at once.
  placement.listen({
    gained: (markets) => void warmup.load(markets),
    lost: (markets) => markets.forEach((market) => memory.dropMarket(market.id)),
    preload: (market) => warmup.load([market], true),
  });
  return {
    name: 'discovery',
    schema: SCHEMA,
    migrations,
    // This replica's share of the markets first, then their indexes load in the background; the
    // service is ready once they have.
    start: async () => {
      await placement.start();
      await warmup.start();
    },
    stop: async () => {
      warmup.stop();
      await placement.stop();
      // A cache file being written is finished, so the next start finds it.
      await cache?.flush();
    },
    routes: discoveryRoutes({
      health: discoveryHealth(db, SCHEMA, migrations, warmup),
      ...buyBoxHandlers(context),
      // What reads a market's indexes is answered by the replica holding the market (forwarded there).
      query: forwarder.wrap('query', queryHandler(context)),
      resolve: forwarder.wrap('resolve', resolveHandler(context)),
      resolveParcels: forwarder.wrap('resolveParcels', resolveParcelsHandler(context)),
      findLeads: forwarder.wrap('findLeads', findLeadsHandler(context)),
      evaluateParcel: forwarder.wrap('evaluateParcel', evaluateParcelHandler(context)),
      getParcel: forwarder.wrap('getParcel', getParcelHandler(context)),
      locateParcels: locateParcelsHandler(context, forwarder),
      geocodeAddress: geocodeAddressHandler(context),
      parcelTile: forwarder.wrap('parcelTile', parcelTileHandler(context, new TileViews(memory))),
    }),
  };
}

/** One of several replicas shares the markets by lease; alone (the embedded default, a test), it holds them all. */
function placementOf(deps: ServiceDeps, db: DiscoveryDb): MarketPlacement {
  if (!deps.replica) return new SoloPlacement();
  return new LeasedPlacement({
    db,
    clock: deps.clock,
    logger: deps.logger.child({ service: 'discovery', component: 'placement' }),
    self: { id: randomUUID(), url: deps.replica.url, weight: Math.max(1, deps.config.discovery.memoryBudgetBytes) },
    leaseMs: deps.config.discovery.leaseSeconds * 1000,
  });
}
