// The --map a file needs for a source: each property the source reads is matched to one of the
// file's attributes, first by its own name (ignoring case, spaces and punctuation: "Capacity MW"
// is capacity_mw), then by the names publishers give it (PUBLISHER_NAMES), each attribute used once.

import type { LayerSource } from '@landscreen/field-catalog';
import { PUBLISHER_NAMES } from './publisher-names.js';

export interface ProposedMap {
  /** File attribute → source property, in the source's property order. */
  pairs: [string, string][];
  /** Properties no attribute matched: left out of the map (their fields answer null). */
  unmatched: string[];
}

const plain = (name: string): string => name.toLowerCase().replace(/[^a-z0-9]/g, '');

export function proposeMap(source: LayerSource, attributes: readonly string[]): ProposedMap {
  const used = new Set<string>();
  const byPlain = new Map<string, string>();
  for (const attribute of attributes) if (!byPlain.has(plain(attribute))) byPlain.set(plain(attribute), attribute);
  const take = (candidate: string): string | undefined => {
    const attribute = byPlain.get(plain(candidate));
    return attribute === undefined || used.has(attribute) ? undefined : attribute;
  };
  const found = new Map<string, string>();
  // Own names first for every property, so a publisher alias never takes an attribute that is
  // exactly another property's (census NAME is county only when no property is called name).
  for (const property of source.properties) {
    const attribute = take(property.name);
    if (attribute !== undefined) {
      found.set(property.name, attribute);
      used.add(attribute);
    }
  }
  for (const property of source.properties) {
    if (found.has(property.name)) continue;
    for (const alias of PUBLISHER_NAMES[property.name] ?? []) {
      const attribute = take(alias);
      if (attribute === undefined) continue;
      found.set(property.name, attribute);
      used.add(attribute);
      break;
    }
  }
  return {
    pairs: source.properties.flatMap((property) => (found.has(property.name) ? [[found.get(property.name)!, property.name] as [string, string]] : [])),
    unmatched: source.properties.filter((property) => !found.has(property.name)).map((property) => property.name),
  };
}

/** The option as typed in a shell: quoted when an attribute holds spaces or shell characters. */
export function mapOption(pairs: readonly [string, string][]): string {
  const text = pairs.map(([attribute, property]) => `${attribute}=${property}`).join(',');
  return /^[\w.,=-]+$/.test(text) ? `--map ${text}` : `--map '${text.replaceAll("'", "'\\''")}'`;
}
