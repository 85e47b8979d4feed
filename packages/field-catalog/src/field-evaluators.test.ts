import { describe, expect, it } from 'vitest';
import { buildCatalogPage } from './catalog-page.js';
import { evaluatorProperties, evaluatorSource, PARCEL_OVERLAY_MEASURES } from './field-evaluator.js';
import { evaluatorOf } from './field-record.js';
import { FIELD_BY_NAME, FIELDS, fieldsOfGroup } from './fields.js';
import { SOURCE_DECLARATION_BY_ID, SOURCE_DECLARATIONS, isLayerSource, layerSource } from './layer-sources.js';
import { SOURCES } from './sources.js';

const GRID_KINDS = new Set(['grid_value', 'slope_degrees', 'aspect_degrees', 'aspect_cardinal']);

describe('layer sources', () => {
  it('declares every catalog source exactly once', () => {
    const ids = SOURCE_DECLARATIONS.map((declaration) => declaration.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(Object.keys(SOURCES).sort());
  });

  it("keeps the issue's binding table: geometry kind and properties read", () => {
    const binding = {
      hifld_substations: ['points', ['name', 'max_voltage_kv', 'status']],
      hifld_transmission_lines: ['lines', ['voltage_kv', 'voltage_class', 'status', 'owner']],
      eia_860_power_plants: ['points', ['name', 'primary_fuel', 'capacity_mw']],
      usfws_nwi: ['polygons', ['wetland_type', 'wetland_subtype']],
      fema_nfhl: ['polygons', []],
      census_tiger: ['polygons', ['tract_geoid', 'county', 'region', 'locality']],
      eia_861_retail_sales: ['polygons', ['industrial_usd_per_kwh']],
      usgs_3dep: ['grid', []],
    } as const;
    for (const [id, [geometry, properties]] of Object.entries(binding)) {
      const declaration = layerSource(id as keyof typeof SOURCES);
      expect({ id, geometry: declaration.geometry, properties: declaration.properties.map((p) => p.name) }).toEqual({ id, geometry, properties });
    }
  });

  it('marks the sources that feed no layer-computed field', () => {
    expect(SOURCE_DECLARATION_BY_ID.get('service_parameter')?.feeds).toBe('service_parameter');
    expect(SOURCE_DECLARATION_BY_ID.get('derived')?.feeds).toBe('derivation');
    expect(SOURCE_DECLARATION_BY_ID.get('parcel_vendor')?.feeds).toBe('parcels');
  });
});

describe('field evaluators', () => {
  it('every field has one, reading a declared layer source of the right geometry and only its declared properties', () => {
    for (const field of FIELDS) {
      const evaluator = evaluatorOf(field);
      const source = evaluatorSource(evaluator);
      if (source === undefined) continue;
      const declaration = SOURCE_DECLARATION_BY_ID.get(source);
      expect(isLayerSource(declaration), `${field.name} reads ${source}`).toBe(true);
      if (!isLayerSource(declaration)) continue;
      expect(declaration.geometry === 'grid', `${field.name}: ${evaluator.kind} on a ${declaration.geometry} source`).toBe(GRID_KINDS.has(evaluator.kind));
      const declared = declaration.properties.map((p) => p.name);
      for (const property of evaluatorProperties(evaluator)) {
        expect(declared, `${field.name} reads ${source}.${property}`).toContain(property);
      }
    }
  });

  it("computes each field from the field's own source (radius parameters from the counted source)", () => {
    for (const field of FIELDS) {
      const evaluator = evaluatorOf(field);
      const source = evaluatorSource(evaluator);
      if (evaluator.kind === 'radius_used') expect(field.source).toBe('service_parameter');
      else if (source !== undefined) expect(source, field.name).toBe(field.source);
      else if (evaluator.kind === 'derived') expect(field.source).toBe('derived');
      else expect(['parcel_vendor', 'derived']).toContain(field.source);
    }
  });

  it('flags exactly the fields described as CONUS only (general rule 5)', () => {
    for (const field of FIELDS) {
      const evaluator = evaluatorOf(field);
      const flagged = 'conusOnly' in evaluator && evaluator.conusOnly === true;
      expect(flagged, field.name).toBe(field.description.includes('CONUS only'));
    }
  });

  it("limits the spec's search-limited distances (general rule 2)", () => {
    const limit = (name: string) => {
      const evaluator = evaluatorOf(FIELD_BY_NAME.get(name)!);
      return evaluator.kind === 'nearest_distance' ? evaluator.maxDistanceM : undefined;
    };
    expect(limit('nearest_wetland_distance_m')).toBe(500);
    expect(limit('nearest_rail_line_distance_m')).toBe(5_000);
    expect(limit('nearest_dam_distance_m')).toBe(10_000);
  });

  it('derives the two spec derivations as the catalog states them (formula_version 1)', () => {
    for (const field of FIELDS.filter((f) => f.derivation !== null)) {
      const evaluator = evaluatorOf(field);
      expect(evaluator.kind).toBe('derived');
      if (evaluator.kind !== 'derived') continue;
      expect([evaluator.input]).toEqual(field.derivation!.inputs);
      expect(evaluator.formula_version).toBe(field.derivation!.formula_version);
    }
    const gas = evaluatorOf(FIELD_BY_NAME.get('modeled_onsite_gas_generation_cost_usd_per_mwh')!);
    expect(gas.kind === 'derived' && gas.factor).toBeCloseTo(9.5 / 1.037, 12);
  });

  it('covers the parcel_record group with parcel facts and the seven overlays', () => {
    const kinds = fieldsOfGroup('parcel_record').map((field) => evaluatorOf(field).kind);
    expect(kinds.filter((kind) => kind === 'parcel_record')).toHaveLength(12);
    expect(kinds.filter((kind) => kind === 'parcel_overlay')).toHaveLength(PARCEL_OVERLAY_MEASURES.length);
  });

  it('stays internal: the public catalog page carries no evaluator', () => {
    expect(JSON.stringify(buildCatalogPage())).not.toContain('evaluator');
    for (const field of FIELDS) expect(Object.keys(field)).not.toContain('evaluator');
  });
});
