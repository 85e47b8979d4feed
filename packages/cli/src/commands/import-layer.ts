import { parseArgs } from 'node:util';
import { importLayer, ImportCancelledError, LayerImportError, catalogDb } from '@landscreen/catalog-service';
import { SOURCE_DECLARATION_BY_ID, type SourceId } from '@landscreen/field-catalog';
import { LAYER_FORMATS, type LayerFormat } from '@landscreen/layer-io';
import { UsageError, type CommandImplementation } from './command.js';
import { headerRowOf } from './layer-options.js';
import { progressReporter } from './progress.js';

export const importLayerCommand: CommandImplementation = {
  async run({ config, database, out, signal }, args) {
    const { values } = parseArgs({
      args,
      options: {
        source: { type: 'string' },
        file: { type: 'string', multiple: true },
        format: { type: 'string' },
        layer: { type: 'string' },
        sheet: { type: 'string' },
        'header-row': { type: 'string' },
        map: { type: 'string' },
        where: { type: 'string' },
        name: { type: 'string' },
      },
      strict: true,
    });
    if (!values.source || !values.file || values.file.length === 0) throw new UsageError('--source and --file are required');
    const format = values.format as LayerFormat | undefined;
    if (format !== undefined && !LAYER_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${LAYER_FORMATS.join(', ')}`);
    const headerRow = headerRowOf(values['header-row']);
    const what = values.file.length === 1 ? values.file[0] : `${values.file.length} files`;
    const declaration = SOURCE_DECLARATION_BY_ID.get(values.source as SourceId);
    const grid = declaration !== undefined && 'geometry' in declaration && declaration.geometry === 'grid';
    const progress = progressReporter(out, `importing ${what}`, 2000, grid ? 'cells' : 'features');
    try {
      const result = await importLayer(catalogDb(database.db), {
        source: values.source,
        file: values.file,
        format,
        map: values.map,
        name: values.name,
        maxCells: config.grids.maxCells,
        readers: config.grids.importReaders,
        where: values.where,
        limits: config.layerLimits,
        layer: values.layer,
        sheet: values.sheet,
        headerRow,
        signal,
        onProgress: ({ features, fraction }) => progress.update(features, fraction),
      });
      const unit = result.geometry === 'grid' ? 'cells' : 'features';
      progress.update(result.features, 1, true);
      out(`source ${result.source}: layer version ${result.versionId} with ${result.features.toLocaleString('en-US')} ${unit} is now current`);
      return 0;
    } catch (error) {
      out(`error: ${error instanceof LayerImportError ? error.message : (error as Error).message}`);
      out(`nothing was imported; the current version of ${values.source} is unchanged`);
      return error instanceof ImportCancelledError ? 130 : 1;
    }
  },
};
