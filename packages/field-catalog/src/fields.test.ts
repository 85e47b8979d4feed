import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FieldRecord } from './field-record.js';
import { FIELDS, FIELD_BY_NAME, fieldsOfPreset, isCatalogField } from './fields.js';
import { LAYERS, PRESETS } from './vocabulary.js';
import { backticked, lineContaining, parseLegend, parseTables } from './testing/spec-markdown.js';

const SPEC = readFileSync(
  new URL('../../../docs/spec/point-data-catalog-and-pricing.md', import.meta.url),
  'utf8',
);
const TABLES = parseTables(SPEC);

// Code legends, read from the spec's own "Field table" paragraph.
const LEGEND_LINE = lineContaining(SPEC, 'ttl codes:');
const TTL = mapValues(parseLegend(between(LEGEND_LINE, 'ttl codes:', '(seconds)')), Number);
const PRESET_NAMES = parseLegend(between(LEGEND_LINE, 'Preset codes:', "; '-'"));

interface SpecRow {
  name: string;
  layer: string;
  type: string;
  unit: string | null;
  nullable: boolean;
  ttl_seconds: number;
  presets: string[];
  group: string | null;
}

const LAYER_TABLES = TABLES.filter((t) => t.heading.startsWith('Layer ') && t.header[0] === 'name');
const ORDINARY_TABLES = LAYER_TABLES.filter((t) => t.header.join() === 'name,type,unit,null,ttl,presets');
const PARCEL_RECORD_TABLE = LAYER_TABLES.find((t) => t.lead.startsWith('Parcel-record fields'));

const ORDINARY_ROWS: SpecRow[] = ORDINARY_TABLES.flatMap((table) =>
  table.rows.map(([name, type, unit, nullable, ttl, presets]) => ({
    name,
    layer: table.heading.slice('Layer '.length),
    type,
    unit: decodeUnit(unit),
    nullable: yesNo(nullable),
    ttl_seconds: decodeTtl(ttl),
    presets: decodePresets(presets),
    group: null,
  })),
);

// The lead paragraph fixes what the parcel-record table's columns leave out.
const PARCEL_RECORD_ROWS: SpecRow[] = (PARCEL_RECORD_TABLE?.rows ?? []).map(([name, type, unit, presets]) => ({
  name,
  layer: 'parcels',
  // "string (a JSON string to be parsed)" is still the type `string`.
  type: type.split(' ')[0],
  unit: decodeUnit(unit),
  nullable: true,
  ttl_seconds: decodeTtl('D'),
  presets: decodePresets(presets),
  group: 'parcel_record',
}));

const SPEC_ROWS = [...ORDINARY_ROWS, ...PARCEL_RECORD_ROWS];

// "Definitions of the parcel-group fields a, b, ... and g (named as members ...)": not shown.
const NAMED_ONLY = between(
  lineContaining(SPEC, 'named as members of the parcel_record group'),
  'parcel-group fields',
  '(named as members',
)
  .split(/,| and /)
  .map((name) => name.trim())
  .filter(Boolean);

describe('the spec tables as parsed', () => {
  it('finds every layer table and the parcel-record table', () => {
    expect(ORDINARY_TABLES.map((t) => t.heading.slice('Layer '.length))).toEqual([...LAYERS]);
    expect(PARCEL_RECORD_TABLE?.header).toEqual(['name', 'type', 'unit', 'presets']);
    expect(PARCEL_RECORD_ROWS).toHaveLength(12);
    expect(NAMED_ONLY).toHaveLength(7);
    expect(TTL.size).toBe(5);
    expect(PRESET_NAMES.size).toBe(14);
  });
});

describe('FIELDS against the spec', () => {
  it.each(SPEC_ROWS.map((row) => [row.name, row] as const))('%s matches its spec row', (name, row) => {
    const field = FIELD_BY_NAME.get(name);
    expect(field, `catalog has no record for ${name}`).toBeDefined();
    expect(specView(field!)).toEqual(row);
  });

  it('has no field the spec does not name', () => {
    const named = new Set([...SPEC_ROWS.map((row) => row.name), ...NAMED_ONLY]);
    expect(FIELDS.filter((field) => !named.has(field.name)).map((f) => f.name)).toEqual([]);
    expect(FIELDS).toHaveLength(SPEC_ROWS.length + NAMED_ONLY.length);
  });

  it("keeps the spec's order: layers in order, fields in table order", () => {
    const catalogOrder = FIELDS.filter((f) => !NAMED_ONLY.includes(f.name)).map((f) => f.name);
    const specOrder = [...LAYERS].flatMap((layer) => SPEC_ROWS.filter((r) => r.layer === layer).map((r) => r.name));
    expect(catalogOrder).toEqual(specOrder);
    const layerRuns = FIELDS.map((f) => f.layer).filter((layer, i, all) => layer !== all[i - 1]);
    expect(layerRuns).toEqual([...LAYERS]);
  });

  it('includes the seven parcel_record members the spec names without defining them', () => {
    for (const name of NAMED_ONLY) {
      const field = FIELD_BY_NAME.get(name);
      expect(field, name).toMatchObject({
        layer: 'parcels',
        type: 'float',
        nullable: true,
        ttl_seconds: TTL.get('D'),
        presets: [],
        billing: { credits_per_location: null, metered_group: 'parcel_record' },
      });
      expect(field!.description).toContain('without a definition');
    }
  });
});

describe('record invariants', () => {
  it('every record follows the field-record contract', () => {
    for (const field of FIELDS) {
      expect(field.lifecycle, field.name).toBe('stable');
      expect(field.description.length, field.name).toBeGreaterThan(10);
      expect(typeof field.interpretation_hints, field.name).toBe('string');
      expect(field.source, field.name).not.toBe('');
      expect(typeof field.source_url, field.name).toBe('string');
      // null_meaning is a string exactly when the field is nullable.
      expect(field.null_meaning === null, field.name).toBe(!field.nullable);
      expect(Object.isFrozen(field), field.name).toBe(true);
    }
  });

  it('bills 1 credit per ordinary field and nothing per field for the parcel_record group', () => {
    for (const field of FIELDS) {
      const grouped = field.billing.metered_group !== null;
      expect(field.billing, field.name).toEqual(
        grouped
          ? { credits_per_location: null, metered_group: 'parcel_record' }
          : { credits_per_location: 1, metered_group: null },
      );
    }
  });

  it('carries exactly the derivations of the spec', () => {
    const table = TABLES.find((t) => t.lead.startsWith('Derivations'))!;
    expect(lineContaining(SPEC, 'Derivations (')).toContain('formula_version 1 for both');
    const expected = Object.fromEntries(
      table.rows.map(([name, formula, input]) => {
        expect(input).toBe('that field');
        return [name, { formula, formula_version: 1, inputs: [formula.split(' ')[0]] }];
      }),
    );
    const actual = Object.fromEntries(
      FIELDS.filter((f) => f.derivation !== null).map((f) => [f.name, f.derivation]),
    );
    expect(actual).toEqual(expected);
    for (const derivation of Object.values(expected)) {
      expect(isCatalogField(derivation.inputs[0])).toBe(true);
    }
  });

  it('carries the enumerated values the spec states, and only for those fields', () => {
    const table = TABLES.find((t) => t.lead.startsWith('Enumerated values'))!;
    // Values the spec gives as prose rather than as a backticked list.
    const prose: Record<string, readonly (string | number)[]> = {
      aspect_cardinal: ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'],
      protected_area_gap_status: [1, 2, 3, 4],
      seismic_design_category: ['A', 'B', 'C', 'D', 'E', 'F'],
      drought_category: ['D0', 'D1', 'D2', 'D3', 'D4'],
      surface_management_agency: table.rows
        .find(([name]) => name === 'surface_management_agency')![1]
        .split(',')
        .map((v) => v.trim()),
      // "Extreme > Severe > Serious > Moderate > Marginal; blank for maintenance-only points"
      air_quality_worst_classification: ['Extreme', 'Severe', 'Serious', 'Moderate', 'Marginal', ''],
    };
    expect(table.header).toEqual(['Field', 'Values']);
    for (const [name, values] of table.rows) {
      const expected = prose[name] ?? backticked(values);
      expect(expected.length, name).toBeGreaterThan(0);
      expect(FIELD_BY_NAME.get(name)?.enum, name).toEqual(expected);
    }
    const enumerated = new Set(table.rows.map(([name]) => name));
    expect(FIELDS.filter((f) => f.enum !== undefined && !enumerated.has(f.name)).map((f) => f.name)).toEqual([]);
  });

  it('says where a field is search-limited', () => {
    expect(FIELD_BY_NAME.get('nearest_wetland_distance_m')!.description).toContain('500 m');
    expect(FIELD_BY_NAME.get('nearest_rail_line_distance_m')!.description).toContain('5 km');
    expect(FIELD_BY_NAME.get('nearest_dam_distance_m')!.description).toContain('10 km');
    for (const field of FIELDS.filter((f) => f.description.includes('CONUS only'))) {
      expect(field.null_meaning, field.name).toContain('CONUS only');
    }
  });
});

describe('lookups', () => {
  it('indexes every field by name', () => {
    expect(FIELD_BY_NAME.size).toBe(FIELDS.length);
    expect(isCatalogField('elevation')).toBe(true);
    expect(isCatalogField('parcel_owner')).toBe(true);
    expect(isCatalogField('elevation_ft')).toBe(false);
  });

  it('lists every preset of the spec, each with fields', () => {
    expect([...PRESETS]).toEqual([...PRESET_NAMES.values()]);
    for (const preset of PRESETS) expect(fieldsOfPreset(preset).length, preset).toBeGreaterThan(0);
  });
});

function specView(field: FieldRecord): SpecRow {
  return {
    name: field.name,
    layer: field.layer,
    type: field.type,
    unit: field.unit,
    nullable: field.nullable,
    ttl_seconds: field.ttl_seconds,
    presets: [...field.presets],
    group: field.billing.metered_group,
  };
}

function decodeUnit(unit: string): string | null {
  return unit === '-' ? null : unit;
}

function yesNo(flag: string): boolean {
  if (flag !== 'Y' && flag !== 'N') throw new Error(`bad nullable flag ${flag}`);
  return flag === 'Y';
}

function decodeTtl(code: string): number {
  const seconds = TTL.get(code);
  if (seconds === undefined) throw new Error(`unknown ttl code ${code}`);
  return seconds;
}

function decodePresets(codes: string): string[] {
  if (codes === '-') return [];
  return codes.split(',').map((code) => {
    const name = PRESET_NAMES.get(code);
    if (name === undefined) throw new Error(`unknown preset code ${code}`);
    return name;
  });
}

function between(text: string, start: string, end: string): string {
  const from = text.indexOf(start);
  const to = text.indexOf(end, from + start.length);
  if (from < 0 || to < 0) throw new Error(`cannot find "${start}" ... "${end}"`);
  return text.slice(from + start.length, to);
}

function mapValues<K, V, W>(map: Map<K, V>, fn: (value: V) => W): Map<K, W> {
  return new Map([...map].map(([key, value]) => [key, fn(value)]));
}
