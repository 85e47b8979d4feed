import { parseArgs } from 'node:util';
import { CatalogError } from '@landscreen/field-catalog';
import { DEFAULT_ENGINE_WORKERS, NoLayersError, prepareMarket, prepareOnWorkers } from '@landscreen/prepare';
import type { CommandContext } from './command.js';
import { UsageError, type CommandImplementation } from './command.js';
import { progressReporter } from './progress.js';

export const prepareCommand: CommandImplementation = {
  async run({ database, config, bus, signal, out }, args) {
    const { values } = parseArgs({
      args,
      options: { market: { type: 'string' }, fields: { type: 'string' }, preset: { type: 'string' }, workers: { type: 'boolean' } },
      strict: true,
    });
    if (!values.market) throw new UsageError('--market is required');
    const fields = values.fields
      ?.split(',')
      .map((field) => field.trim())
      .filter((field) => field !== '');
    if (values.workers) return onWorkers({ database, bus, signal, out }, values.market, fields, values.preset);
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

/**
 * `--workers`: the chunks go to `serve --prepare-worker` processes over NATS; this process opens
 * the vintage, shows the chunks done and makes the vintage current once all are in.
 */
async function onWorkers(context: Pick<CommandContext, 'database' | 'bus' | 'signal' | 'out'>, market: string, fields: string[] | undefined, preset: string | undefined): Promise<number> {
  const { database, bus, out } = context;
  if (bus.kind !== 'nats' || database.kind !== 'postgres') {
    out('error: --workers needs NATS_URL and DATABASE_URL (prepare workers are processes of their own: landscreen serve --prepare-worker)');
    return 2;
  }
  const progress = progressReporter(out, `preparing ${market}`, 2000, 'chunks');
  try {
    const result = await prepareOnWorkers(database.db, {
      market,
      fields,
      preset,
      bus,
      signal: context.signal,
      onStart: ({ fields, uncovered, base, chunks }) => {
        out(`screening ${base.parcels.toLocaleString('en-US')} parcels of vintage ${base.vintageId} on ${fields.length} fields, in ${chunks} chunks on prepare workers`);
        if (uncovered.length > 0) out(`no layer loaded for ${uncovered.join(', ')}: stored as null (no_coverage)`);
      },
      onProgress: ({ chunks, total }) => progress.update(chunks, chunks / total, chunks === total),
    });
    out(`market ${market}: vintage ${result.vintageId} with ${result.parcels.toLocaleString('en-US')} prepared parcels is now current`);
    return 0;
  } catch (error) {
    out(`error: ${(error as Error).message}`);
    if (!(error instanceof CatalogError || error instanceof NoLayersError)) out('nothing was written; the current vintage is unchanged');
    return 1;
  }
}
