import { FIELD_BY_NAME } from '@landscreen/field-catalog';
import type { StepProvider } from '../provider.js';
import { BUILTIN_PROVIDER, builtinResult, noFacts, vintageCitation } from './builtin-result.js';

/**
 * point_data: the catalog fields (grid, terrain, hazard, climate, …) stored with the parcel,
 * grouped by catalog layer. Ready when the parcel carries any; partial when it carries none.
 */
export const pointDataProvider: StepProvider = {
  name: BUILTIN_PROVIDER,
  async run(input) {
    const parcel = input.property?.property.parcel;
    if (!parcel) return noFacts(input, 'Point data');
    const layers: Record<string, Record<string, unknown>> = {};
    const fields: string[] = [];
    for (const [name, value] of Object.entries(parcel.derived)) {
      const field = FIELD_BY_NAME.get(name);
      if (!field || value === null || value === undefined) continue;
      (layers[field.layer] ??= {})[name] = value;
      fields.push(name);
    }
    fields.sort();
    const layerNames = Object.keys(layers).sort();
    const summary = fields.length
      ? `${fields.length} point-data fields on record across ${layerNames.length} layers (${layerNames.join(', ')}).`
      : 'No point data is stored for this parcel.';
    return builtinResult(input, fields.length ? 'ready' : 'partial', summary, { field_count: fields.length, layers }, [vintageCitation(input, fields)]);
  },
};
