import path from 'node:path';
import type { ServiceDeps, ServiceModule } from '@landscreen/rpc';
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
import { migrations } from './migrations/index.js';
import { IndexCache } from './ranking/index-cache.js';
import { indexLoader } from './ranking/index-loader.js';
import { Ranker } from './ranking/ranker.js';
import { discoveryDb, SCHEMA } from './schema.js';
import { TileViews } from './tiles/tile-views.js';
import { IndexWarmup } from './warm-up.js';

export function createDiscoveryService(deps: ServiceDeps): ServiceModule {
  const logger = deps.logger.child({ service: 'discovery' });
  const db = discoveryDb(deps.db);
  const cacheDir = deps.config.discoveryCacheDir ?? path.join(deps.config.dataDir, 'discovery-cache');
  const cache = cacheDir === false ? undefined : new IndexCache(cacheDir, logger);
  const ranker = new Ranker(indexLoader({ db, cache, logger, faults: deps.faults }));
  const context: DiscoveryContext = {
    db,
    clock: deps.clock,
    config: deps.config,
    logger,
    ranker,
    cursorSecret: cursorSecretLoader(db),
  };
  // Read (stored by the import) after the ranking indexes at start, in the background, or on the
  // first LocateParcels or map tile that needs a vintage warm-up did not load.
  const parcelIndexes = new ParcelIndexes((vintageId) => loadParcelIndex(db, vintageId, { logger, faults: deps.faults }), logger);
  const warmup = new IndexWarmup({ db, ranker, cache, logger, faults: deps.faults, parcelIndexes });
  return {
    name: 'discovery',
    schema: SCHEMA,
    migrations,
    // The current vintages' indexes load in the background; the service is ready once they have.
    start: () => warmup.start(),
    stop: async () => {
      warmup.stop();
      // A cache file being written is finished, so the next start finds it.
      await cache?.flush();
    },
    routes: discoveryRoutes({
      health: discoveryHealth(db, SCHEMA, migrations, warmup),
      ...buyBoxHandlers(context),
      query: queryHandler(context),
      resolve: resolveHandler(context),
      resolveParcels: resolveParcelsHandler(context),
      findLeads: findLeadsHandler(context),
      evaluateParcel: evaluateParcelHandler(context),
      getParcel: getParcelHandler(context),
      locateParcels: locateParcelsHandler(context, parcelIndexes),
      geocodeAddress: geocodeAddressHandler(context),
      parcelTile: parcelTileHandler(context, parcelIndexes, new TileViews()),
    }),
  };
}
