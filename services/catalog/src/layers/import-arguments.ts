// What `landscreen import layer` is told, checked before any file is read: the source (with a
// did-you-mean) and the --map, whose every target must be a property the source reads.

import { closestMatch, isLayerSource, SOURCE_DECLARATION_BY_ID, SOURCE_DECLARATIONS, type LayerSource, type SourceId } from '@landscreen/field-catalog';
import { parsePropertyMap, type PropertyMap } from '@landscreen/layer-io';
import { LayerImportError } from './layer-import-error.js';

export function layerSourceNamed(source: string): LayerSource {
  const declaration = SOURCE_DECLARATION_BY_ID.get(source as SourceId);
  if (isLayerSource(declaration)) return declaration;
  const layerIds = SOURCE_DECLARATIONS.filter(isLayerSource).map((candidate) => candidate.id);
  const suggestion = closestMatch(source, layerIds);
  const hint = suggestion === null ? ' (GET /v1/meta/sources lists them)' : ` (did you mean "${suggestion}"?)`;
  throw new LayerImportError(
    declaration === undefined ? `unknown source "${source}"${hint}` : `source "${source}" is not loaded from layer files (it is ${declaration.feeds})`,
  );
}

export function propertyMap(declaration: LayerSource, text: string | undefined): PropertyMap | undefined {
  if (text === undefined) return undefined;
  if (declaration.geometry === 'grid') throw new LayerImportError(`${declaration.id} is a grid: it has no properties to --map onto`);
  let map: PropertyMap;
  try {
    map = parsePropertyMap(text);
  } catch (error) {
    throw new LayerImportError((error as Error).message);
  }
  const declared = declaration.properties.map((property) => property.name);
  for (const [attribute, property] of map) {
    if (declared.includes(property)) continue;
    const suggestion = closestMatch(property, declared);
    const reads = declared.length === 0 ? 'it reads no property' : `it reads ${declared.join(', ')}`;
    throw new LayerImportError(
      `--map ${attribute}=${property}: ${declaration.id} reads no property "${property}"${suggestion === null ? '' : ` (did you mean "${suggestion}"?)`}; ${reads}`,
    );
  }
  return map;
}
