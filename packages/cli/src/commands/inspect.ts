import { parseArgs } from 'node:util';
import { SOURCE_DECLARATION_BY_ID, isLayerSource, type SourceId } from '@landscreen/field-catalog';
import { inspectLayerFile, LayerReadError, type LayerDescription } from '@landscreen/layer-io';
import { mapOption, proposeMap } from '../inspect/propose-map.js';
import { UsageError, type CommandImplementation } from './command.js';
import { headerRowOf } from './layer-options.js';

export const inspectCommand: CommandImplementation = {
  async run({ out }, args) {
    const { values, positionals } = parseArgs({
      args,
      options: { source: { type: 'string' }, 'header-row': { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new UsageError('name one FILE');
    const source = values.source === undefined ? undefined : SOURCE_DECLARATION_BY_ID.get(values.source as SourceId);
    if (values.source !== undefined && !isLayerSource(source)) throw new UsageError(`"${values.source}" is not a layer source (GET /v1/meta/sources lists them)`);
    let description;
    try {
      description = await inspectLayerFile(positionals[0], { headerRow: headerRowOf(values['header-row']) });
    } catch (error) {
      if (error instanceof LayerReadError) {
        out(`error: ${error.message}`);
        return 1;
      }
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        out(`error: ${positionals[0]}: no such file`);
        return 1;
      }
      throw error;
    }
    out(`${positionals[0]}: ${description.format}, ${description.layers.length} ${description.layers.length === 1 ? 'layer' : 'layers'}`);
    const choose = description.format === 'xlsx' ? '--sheet' : '--layer';
    for (const layer of description.layers) {
      out('');
      for (const line of describe(layer)) out(line);
      if (source !== undefined && isLayerSource(source) && layer.problem === undefined) {
        const { pairs, unmatched } = proposeMap(source, layer.attributes.map((attribute) => attribute.name));
        const pick = description.layers.length > 1 ? ` ${choose} ${quoted(layer.name)}` : '';
        out(`  import: landscreen import layer --source ${source.id} --file ${quoted(positionals[0])}${pick}${pairs.length > 0 ? ` ${mapOption(pairs)}` : ''}`);
        if (unmatched.length > 0) out(`  no attribute found for: ${unmatched.join(', ')} (those fields will answer null)`);
      }
    }
    return 0;
  },
};

function describe(layer: LayerDescription): string[] {
  const width = Math.max(0, ...layer.attributes.map((attribute) => attribute.name.length));
  return [
    `layer ${quoted(layer.name)}`,
    `  geometry: ${layer.geometryKinds.join(', ') || 'none'}`,
    `  crs: ${layer.crs}`,
    `  features: ${layer.featureCount.toLocaleString('en-US')}`,
    ...(layer.problem === undefined ? [] : [`  problem: ${layer.problem}`]),
    `  attributes:${layer.attributes.length === 0 ? ' none' : ''}`,
    ...layer.attributes.map((attribute) => `    ${attribute.name.padEnd(width)}  ${attribute.type}`),
  ];
}

function quoted(text: string): string {
  return /^[\w./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
