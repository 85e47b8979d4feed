import { parseArgs } from 'node:util';
import { importLayer, LayerImportError, catalogDb } from '@landscreen/catalog-service';
import { LAYER_FORMATS, type LayerFormat } from '@landscreen/layer-io';
import { UsageError, type Command } from './command.js';
import { progressReporter } from './progress.js';

export const importLayerCommand: Command = {
  words: ['import', 'layer'],
  summary: 'Load a GIS layer file as a new version of a point-data source',
  usage:
    'landscreen import layer --source SOURCE --file PATH [--format ' +
    LAYER_FORMATS.join('|') +
    '] [--layer NAME] [--sheet NAME] [--header-row N] [--map attr=property,...] [--name NAME]',
  async run({ database, out }, args) {
    const { values } = parseArgs({
      args,
      options: {
        source: { type: 'string' },
        file: { type: 'string' },
        format: { type: 'string' },
        layer: { type: 'string' },
        sheet: { type: 'string' },
        'header-row': { type: 'string' },
        map: { type: 'string' },
        name: { type: 'string' },
      },
      strict: true,
    });
    if (!values.source || !values.file) throw new UsageError('--source and --file are required');
    const format = values.format as LayerFormat | undefined;
    if (format !== undefined && !LAYER_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${LAYER_FORMATS.join(', ')}`);
    const headerRow = headerRowOf(values['header-row']);
    const progress = progressReporter(out, `importing ${values.file}`, 2000, 'features');
    try {
      const result = await importLayer(catalogDb(database.db), {
        source: values.source,
        file: values.file,
        format,
        map: values.map,
        name: values.name,
        layer: values.layer,
        sheet: values.sheet,
        headerRow,
        onProgress: ({ features, fraction }) => progress.update(features, fraction),
      });
      const unit = result.geometry === 'grid' ? 'cells' : 'features';
      progress.update(result.features, 1, true);
      out(`source ${result.source}: layer version ${result.versionId} with ${result.features.toLocaleString('en-US')} ${unit} is now current`);
      return 0;
    } catch (error) {
      out(`error: ${error instanceof LayerImportError ? error.message : (error as Error).message}`);
      out(`nothing was imported; the current version of ${values.source} is unchanged`);
      return 1;
    }
  },
};

export function headerRowOf(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1) throw new UsageError(`--header-row must be a row number (1 or more), not ${JSON.stringify(text)}`);
  return Number(text);
}
