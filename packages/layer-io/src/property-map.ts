// `--map attr=property,...`: renames a file's attributes onto the property names a source reads
// (e.g. `--map VOLTAGE=voltage_kv,OWNER=owner`). Attributes not named are kept as they are.

import { setOwn } from '@landscreen/validation';
import type { PropertyMap } from './types.js';

/** Property names are plain snake_case words, as the catalog's sources declare them. */
const PROPERTY_NAME = /^[a-z][a-z0-9_]*$/;

/** Parses the option's text; throws an Error naming the first problem (the CLI reports it as is). */
export function parsePropertyMap(text: string): PropertyMap {
  const map = new Map<string, string>();
  const targets = new Map<string, string>();
  const pairs = text.split(',');
  for (const pair of pairs) {
    const trimmed = pair.trim();
    if (trimmed === '') throw new Error(`--map ${JSON.stringify(text)}: an empty entry (expected attr=property,...)`);
    const equals = trimmed.indexOf('=');
    if (equals < 0) throw new Error(`--map entry ${JSON.stringify(trimmed)} has no "=" (expected attr=property)`);
    const attribute = trimmed.slice(0, equals).trim();
    const property = trimmed.slice(equals + 1).trim();
    if (attribute === '') throw new Error(`--map entry ${JSON.stringify(trimmed)} names no file attribute before "="`);
    if (!PROPERTY_NAME.test(property)) {
      throw new Error(
        `--map entry ${JSON.stringify(trimmed)}: ${JSON.stringify(property)} is not a property name (lower-case letters, digits and "_")`,
      );
    }
    if (map.has(attribute)) throw new Error(`--map names the attribute ${JSON.stringify(attribute)} twice`);
    const other = targets.get(property);
    if (other !== undefined) {
      throw new Error(`--map maps both ${JSON.stringify(other)} and ${JSON.stringify(attribute)} onto ${JSON.stringify(property)}`);
    }
    map.set(attribute, property);
    targets.set(property, attribute);
  }
  return map;
}

/**
 * The properties with the map's renames. A mapped attribute wins over an attribute that already
 * has the target name: the operator named it on purpose.
 */
export function renameProperties(properties: Record<string, unknown>, map: PropertyMap, targets: ReadonlySet<string>): Record<string, unknown> {
  const renamed: Record<string, unknown> = {};
  for (const key of Object.keys(properties)) {
    const target = map.get(key);
    if (target !== undefined) setOwn(renamed, target, properties[key]);
    else if (!targets.has(key)) setOwn(renamed, key, properties[key]);
  }
  return renamed;
}

/** Mapped attributes that `properties` lacks, in the map's order. */
export function missingAttributes(properties: Record<string, unknown>, map: PropertyMap): string[] {
  return [...map.keys()].filter((attribute) => !Object.hasOwn(properties, attribute));
}
