import { parseArgs } from 'node:util';
import { CatalogError } from '@landscreen/field-catalog';
import { DEFAULT_ENGINE_WORKERS, NoLayersError, prepareMarket } from '@landscreen/prepare';
import { UsageError, type CommandImplementation } from './command.js';
import { progressReporter } from './progress.js';

export const prepareCommand: CommandImplementation = {
  async run({ database, config, out }, args) {
    const { values } = parseArgs({
      args,
      options: { market: { type: 'string' }, fields: { type: 'string' }, preset: { type: 'string' } },
      strict: true,
    });
    if (!values.market) throw new UsageError('--market is required');
    const fields = values.fields
      ?.split(',')
      .map((field) => field.trim())
      .filter((field) => field !== '');
    let parcels = 0;
    const progress = progressReporter(out, `preparing ${values.market}`);
    try {
      const result = await prepareMarket(database.db, {
        market: values.market,
        fields,
        preset: values.preset,
        onStart: ({ fields, uncovered, base }) => {
          parcels = base.parcels;
          out(`screening ${base.parcels.toLocaleString('en-US')} parcels of vintage ${base.vintageId} on ${fields.length} fields`);
          if (uncovered.length > 0) out(`no layer loaded for ${uncovered.join(', ')}: stored as null (no_coverage)`);
        },
        onProgress: (done) => progress.update(done.parcels, parcels > 0 ? done.parcels / parcels : undefined),
        // On PostgreSQL the engine runs on worker threads, one per core (engine-pool.ts), and a
        // large grid's blocks load as pages need them; PGlite's one connection is the vintage's
        // transaction, so there grids are read whole first.
        engineWorkers: database.kind === 'postgres' && config.databaseUrl ? { databaseUrl: config.databaseUrl, count: DEFAULT_ENGINE_WORKERS } : undefined,
        layerCache: database.kind === 'postgres' ? { gridCacheBytes: config.grids.cacheMb * 2 ** 20 } : undefined,
      });
      progress.update(result.parcels, 1, true);
      out(`market ${values.market}: vintage ${result.vintageId} with ${result.parcels.toLocaleString('en-US')} prepared parcels is now current`);
      return 0;
    } catch (error) {
      out(`error: ${(error as Error).message}`);
      // Mistakes in the request are caught before anything is written: say so only for the rest.
      if (!(error instanceof CatalogError || error instanceof NoLayersError)) out('nothing was written; the current vintage is unchanged');
      return 1;
    }
  },
};
