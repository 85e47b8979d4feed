import { evaluatorOf, evaluatorSource, FIELDS, isLayerSource, SOURCE_DECLARATIONS, SOURCES, type SourceId } from '@landscreen/field-catalog';
import { layerVersionMessage } from '../layers/version-message.js';
import { currentVersionRows } from '../layers/versions.js';
import type { CatalogImpl } from '../connect.js';
import type { CatalogDb } from '../schema.js';

/** The fields each source feeds: those whose evaluator reads it, or that name it as their source. */
const FIELDS_BY_SOURCE = new Map<SourceId, string[]>();
for (const field of FIELDS) {
  const sources = new Set([evaluatorSource(evaluatorOf(field)), field.source as SourceId]);
  for (const source of sources) if (source !== undefined) FIELDS_BY_SOURCE.set(source, [...(FIELDS_BY_SOURCE.get(source) ?? []), field.name]);
}

const LAYER_SOURCES = SOURCE_DECLARATIONS.filter(isLayerSource);

/** Every layer source as declared, with its current version (GET /v1/meta/sources). */
export function listSources(db: CatalogDb): CatalogImpl['listSources'] {
  return async () => {
    const current = new Map((await currentVersionRows(db)).map((row) => [row.source, layerVersionMessage(row, true)]));
    return {
      sources: LAYER_SOURCES.map((source) => ({
        id: source.id,
        geometry: source.geometry,
        properties: source.properties.map((property) => ({ name: property.name, type: property.type })),
        band: source.band ?? '',
        fields: FIELDS_BY_SOURCE.get(source.id) ?? [],
        url: SOURCES[source.id] ?? '',
        current: current.get(source.id),
      })),
    };
  };
}
