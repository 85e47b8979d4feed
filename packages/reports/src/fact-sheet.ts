// The fact sheet: every fact the screening stored, grouped as the field catalog groups its fields
// (terrain, land cover, …, hazards), in the catalog's order, then the parcel record's own columns
// and the market's other facts. Labels, units and rounding come from field-labels.ts.

import { FIELDS, LAYERS, type Layer } from '@landscreen/field-catalog';
import { fieldLabel, formatFact } from './field-labels.js';
import { humanize } from './format.js';
import type { FactGroup } from './model.js';

/** The parcel record's columns (D13), which are not catalog fields: shown first among the rest. */
const PARCEL_RECORD = ['apn', 'address', 'owner_name', 'acres', 'developable_acres', 'zoning', 'land_use', 'assessed_value_usd'];

/** Facts the sheet leaves out: the parcel's identity and geometry, shown elsewhere on the report. */
const NOT_FACTS = new Set(['parcel_key', 'geometry', 'bbox', 'lat', 'lon', 'vintage_id', 'market']);

const GROUP_TITLES: Readonly<Record<Layer, string>> = {
  terrain: 'Terrain',
  land_cover: 'Land cover',
  built_environment: 'Built environment',
  utilities: 'Utilities and grid',
  parcels: 'Parcel overlays',
  climate: 'Climate',
  hazards: 'Hazards',
};

/** The groups of the sheet, each with its facts; a catalog group without facts says how many fields it has. */
export function factSheet(facts: Readonly<Record<string, unknown>>): FactGroup[] {
  const shown = new Set<string>();
  const groups: FactGroup[] = [];
  const present = (name: string) => Object.hasOwn(facts, name) && !NOT_FACTS.has(name);
  const recordFacts = PARCEL_RECORD.filter(present);
  recordFacts.forEach((name) => shown.add(name));
  groups.push({ title: 'Parcel record', facts: recordFacts.map((name) => ({ label: fieldLabel(name), value: formatFact(name, facts[name]) })), fieldCount: PARCEL_RECORD.length });
  for (const layer of LAYERS) {
    const fields = FIELDS.filter((field) => field.layer === layer);
    const found = fields.filter((field) => present(field.name));
    found.forEach((field) => shown.add(field.name));
    groups.push({ title: GROUP_TITLES[layer] ?? humanize(layer), facts: found.map((field) => ({ label: fieldLabel(field.name), value: formatFact(field.name, facts[field.name]) })), fieldCount: fields.length });
  }
  const others = Object.keys(facts)
    .filter((name) => present(name) && !shown.has(name))
    .sort();
  if (others.length > 0) groups.push({ title: 'Other facts', facts: others.map((name) => ({ label: fieldLabel(name), value: formatFact(name, facts[name]) })), fieldCount: others.length });
  return groups;
}
