import { stat } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { discoveryDb, importVintage, DiscoveryInputError } from '@landscreen/discovery-service';
import { ParcelRowError, readParcelBatches, toParcelRecord, type ParcelRecord } from '@landscreen/parcel-io';
import { UsageError, type CommandImplementation } from './command.js';
import { progressReporter } from './progress.js';

export const importParcelsCommand: CommandImplementation = {
  async run({ database, out }, args) {
    const { values } = parseArgs({
      args,
      options: { market: { type: 'string' }, name: { type: 'string' }, file: { type: 'string' }, format: { type: 'string' } },
      strict: true,
    });
    if (!values.market || !values.file) throw new UsageError('--market and --file are required');
    if (values.format && !['geojson', 'ndjson', 'csv'].includes(values.format)) throw new UsageError('--format must be geojson, ndjson or csv');
    const file = path.resolve(values.file);
    const size = (await stat(file).catch(() => undefined))?.size;
    if (size === undefined) {
      out(`error: cannot read ${file}`);
      return 1;
    }
    const progress = progressReporter(out, `importing ${path.basename(file)}`);
    let bytesRead = 0;
    const market = values.market;
    // Rows arrive in the batches each chunk of the file completes: no await per parcel.
    async function* records(): AsyncIterable<ParcelRecord[]> {
      const batches = readParcelBatches(file, {
        format: values.format as 'geojson' | 'ndjson' | 'csv' | undefined,
        onProgress: (progress) => (bytesRead = progress.bytesRead),
      });
      for await (const rows of batches) yield rows.map((row) => toParcelRecord(row, market));
    }
    try {
      const result = await importVintage(discoveryDb(database.db), {
        market,
        name: values.name,
        source: path.basename(file),
        records: records(),
        onProgress: ({ parcels }) => progress.update(parcels, size > 0 ? bytesRead / size : undefined),
      });
      progress.update(result.parcels, 1, true);
      out(`market ${market}: vintage ${result.vintageId} with ${result.parcels.toLocaleString('en-US')} parcels is now current`);
      return 0;
    } catch (error) {
      if (error instanceof ParcelRowError || error instanceof DiscoveryInputError) {
        out(`error: ${error.message}`);
        out('nothing was imported; the current vintage is unchanged');
        return 1;
      }
      const detail = (error as { detail?: string; code?: string }).code === '23505' ? ` (${(error as { detail?: string }).detail})` : '';
      out(`error: ${(error as Error).message}${detail}`);
      out('nothing was imported; the current vintage is unchanged');
      return 1;
    }
  },
};
