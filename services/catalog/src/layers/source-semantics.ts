// What a source's declaration says about its publisher's values, applied on import: the source's
// filter and the operator's --where choose the features; value patterns refuse a file whose
// attribute does not hold what the property means (a county GEOID mapped onto tract_geoid).
// Sentinels are applied where the engine reads the properties (point-engine coerce).

import type { LayerSource, SourceProperty } from '@landscreen/field-catalog';
import { describePosition, parseWhere, WhereSyntaxError, type FeaturePosition, type WherePredicate } from '@landscreen/layer-io';
import { LayerImportError } from './layer-import-error.js';

/** The features to keep: the source's filter (when the file has its attributes) and --where. */
export function featureFilter(declaration: LayerSource, where: string | undefined): WherePredicate | undefined {
  const tests: WherePredicate[] = [];
  if (declaration.filter !== undefined) {
    const filter = parseWhere(declaration.filter.where);
    // A file without the attributes the filter names has been cut to the source already.
    tests.push((properties) => !filter.fields.some((field) => Object.hasOwn(properties, field)) || filter.test(properties));
  }
  if (where !== undefined) {
    if (declaration.geometry === 'grid') throw new LayerImportError(`${declaration.id} is a grid: --where filters features, and a grid has none`);
    try {
      tests.push(parseWhere(where).test);
    } catch (error) {
      if (error instanceof WhereSyntaxError) throw new LayerImportError(`${error.message} (e.g. --where "FLD_ZONE IN ('A', 'AE') AND STATUS LIKE 'ACT%'")`);
      throw error;
    }
  }
  if (tests.length === 0) return undefined;
  return tests.length === 1 ? tests[0] : (properties) => tests.every((test) => test(properties));
}

interface PatternCheck {
  property: SourceProperty;
  regex: RegExp;
}

/** A check of a feature's kept properties against the patterns the source declares (none: undefined). */
export function patternChecker(
  file: string,
  declaration: LayerSource,
  mappedFrom: ReadonlyMap<string, string>,
): ((properties: Record<string, unknown>, position: FeaturePosition) => void) | undefined {
  const checks: PatternCheck[] = declaration.properties
    .filter((property) => property.pattern !== undefined)
    .map((property) => ({ property, regex: new RegExp(property.pattern!.regex) }));
  if (checks.length === 0) return undefined;
  return (properties, position) => {
    for (const { property, regex } of checks) {
      const value = comparable(property, properties[property.name]);
      if (value === null || regex.test(value)) continue;
      const attribute = mappedFrom.get(property.name);
      const from = attribute === undefined ? '' : ` (from the file's ${JSON.stringify(attribute)})`;
      throw new LayerImportError(
        `${file}: ${describePosition(position)}: ${property.name} ${JSON.stringify(value)}${from} is not ${property.pattern!.meaning}; ` +
          `map the attribute that holds it onto ${property.name} (--map ATTRIBUTE=${property.name})`,
      );
    }
  };
}

/** The value as the engine will read it, as text; null for an absent value or a sentinel. */
function comparable(property: SourceProperty, raw: unknown): string | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string' && raw.trim() === '') return null;
  if (property.unknownValues?.some((unknown) => unknown === raw || String(unknown) === String(raw).trim())) return null;
  if (property.digits !== undefined && typeof raw === 'number' && Number.isInteger(raw)) return String(raw).padStart(property.digits, '0');
  return String(raw).trim();
}
