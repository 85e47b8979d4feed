import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIELDS, SOURCE_DECLARATIONS, evaluatorOf, isLayerSource, layerSource, type SourceId } from '@landscreen/field-catalog';
import { readGrid, readLayer, type LayerFeature } from '@landscreen/layer-io';
import { Engine, buildGridLayer, buildVectorLayer } from '@landscreen/point-engine';
import { generateDemoParcels } from '../generate.js';
import { DEMO_CENTER } from '../geo.js';
import { parcelCentre } from './sources/built.js';
import { ISO_FOOTPRINTS } from './sources/grid-networks.js';
import { recipeProblems } from './recipes.js';
import { DEMO_LAYERS_MANIFEST, writeDemoLayers, type DemoLayersManifest } from './write-demo-layers.js';
import type { DemoLayerFile } from './types.js';

// A smaller market than the default keeps this quick; the layers are the same kind at any size.
const OPTIONS = { parcels: 4000, seed: 1 };

let dir: string;
let files: DemoLayerFile[];
const engine = new Engine();
const features = new Map<SourceId, LayerFeature[]>();

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'demo-layers-'));
  files = await writeDemoLayers(join(dir, 'a'), OPTIONS);
  for (const file of files) {
    if (file.format === 'geotiff') {
      const grid = await readGrid(file.path);
      engine.load(buildGridLayer(file.source, 'demo', { width: grid.width, height: grid.height, geotransform: grid.geoTransform, noData: grid.noData, values: grid.values }));
      continue;
    }
    const read: LayerFeature[] = [];
    for await (const feature of readLayer(file.path, { format: file.format })) read.push(feature);
    features.set(file.source, read);
    engine.load(buildVectorLayer(file.source, 'demo', read));
  }
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Sources whose polygons cover only parts of the market: their containment fields are often null `not_inside`. */
const PATCHY_SOURCES = new Set<string>([
  'usfws_nwi',
  'nced_easements',
  'usgs_pad_us',
  'usfws_critical_habitat',
  'overture_buildings',
  'cdfi_opportunity_zones',
  'usdm_drought_monitor',
  'epa_green_book',
  'lbnl_queued_up',
]);

/** The null reasons a field may answer at some parcels: search-limited fields and containment in patchy layers. */
function legitimateNulls(name: string): string[] {
  const evaluator = evaluatorOf(FIELDS.find((f) => f.name === name)!);
  const reasons: string[] = [];
  if ('maxDistanceM' in evaluator && evaluator.maxDistanceM !== undefined) reasons.push('none_within_radius');
  if ('source' in evaluator && evaluator.source !== undefined && PATCHY_SOURCES.has(evaluator.source)) reasons.push('not_inside');
  return reasons;
}

const LAYER_SOURCES = SOURCE_DECLARATIONS.filter(isLayerSource).map((d) => d.id);

describe('writeDemoLayers', () => {
  it('writes one file per layer source of the catalog, listed in layers.json with its format', async () => {
    expect(recipeProblems()).toEqual([]);
    expect(files.map((f) => f.source).sort()).toEqual([...LAYER_SOURCES].sort());
    const manifest = JSON.parse(await readFile(join(dir, 'a', DEMO_LAYERS_MANIFEST), 'utf8')) as DemoLayersManifest;
    expect(manifest).toMatchObject({ market: 'demo-tx', seed: 1, parcels: OPTIONS.parcels });
    expect(manifest.layers.map((l) => [l.source, l.file, l.format])).toEqual(files.map((f) => [f.source, f.path.slice(join(dir, 'a').length + 1), f.format]));
    // Every format the readers take, but shapefiles (a demo has no use for a .prj in another CRS).
    expect(new Set(files.map((f) => f.format))).toEqual(new Set(['geojson', 'ndjson', 'csv', 'geotiff']));
  });

  it('reads every file back through layer-io with the geometry kind its source declares', () => {
    const allowed: Record<string, string[]> = {
      points: ['Point'],
      lines: ['LineString', 'MultiLineString'],
      polygons: ['Polygon', 'MultiPolygon'],
      mixed: ['LineString', 'Polygon'],
    };
    for (const file of files) {
      const declaration = layerSource(file.source);
      if (declaration.geometry === 'grid') {
        expect(file.format, file.source).toBe('geotiff');
        continue;
      }
      const read = features.get(file.source)!;
      expect(read.length, file.source).toBe(file.features);
      expect(read.length, file.source).toBeGreaterThan(0);
      const kinds = new Set(read.map((f) => f.geometry.type));
      for (const kind of kinds) expect(allowed[declaration.geometry], `${file.source} has ${kind}`).toContain(kind);
      // Every property the source declares is given under its plain name (lbnl_queued_up's
      // counties belong to no ISO in the layer: only its ISO footprints have `iso`).
      for (const property of declaration.properties) {
        const given = read.filter((f) => f.properties[property.name] !== undefined && f.properties[property.name] !== '').length;
        expect(given, `${file.source}.${property.name}`).toBe(file.source === 'lbnl_queued_up' && property.name === 'iso' ? 5 : read.length);
      }
    }
    expect(new Set(features.get('usgs_nhdplus_hr')!.map((f) => f.geometry.type))).toEqual(new Set(['LineString', 'Polygon']));
  });

  it('lets the engine answer every layer-fed field at the parcels, null only where the field is legitimately so', () => {
    const centres = [...generateDemoParcels(OPTIONS)].map((p) => {
      const [lon, lat] = parcelCentre(p.geometry.coordinates[0]);
      return { lon, lat };
    });
    const fields = FIELDS.filter((f) => !['parcel_record', 'parcel_overlay'].includes(evaluatorOf(f).kind)).map((f) => f.name);
    const answer = engine.evaluate(centres, fields);
    const unexpected = new Set<string>();
    const answered = new Set<string>();
    for (let k = 0; k < fields.length; k++) {
      const allowed = legitimateNulls(fields[k]);
      for (let n = 0; n < centres.length; n++) {
        if (answer.value(n, k) !== null) answered.add(fields[k]);
        else if (!allowed.includes(answer.reason(n, k)!)) unexpected.add(`${fields[k]}: ${answer.reason(n, k)}`);
      }
    }
    expect([...unexpected]).toEqual([]);
    // The ISOs other than ERCOT do not reach Texas: their fields answer inside their footprints.
    const elsewhere = Object.keys(ISO_FOOTPRINTS).map((iso) => `interconnection_queue_active_capacity_${iso.toLowerCase()}_mw`);
    expect(fields.filter((f) => !answered.has(f)).sort()).toEqual(elsewhere.sort());
    for (const [iso, [west, south, east, north]] of Object.entries(ISO_FOOTPRINTS)) {
      const field = `interconnection_queue_active_capacity_${iso.toLowerCase()}_mw`;
      expect(engine.evaluate([{ lon: (west + east) / 2, lat: (south + north) / 2 }], [field]).value(0, 0), field).toBeGreaterThan(0);
    }
  });

  it('keeps the leading zeros of GEOIDs from the file to the engine', async () => {
    // The core lies in county 001 (GEOIDs 48001...): written as a string, read as one, answered as one.
    const text = await readFile(files.find((f) => f.source === 'census_tiger')!.path, 'utf8');
    expect(text).toMatch(/"tract_geoid":"48001\d{6}"/);
    const answer = engine.evaluate([{ lon: DEMO_CENTER.lon + 0.001, lat: DEMO_CENTER.lat + 0.001 }], ['tract_geoid', 'political_county', 'political_region']);
    expect(answer.value(0, 0)).toMatch(/^48001\d{6}$/);
    const tract = features.get('census_tiger')!.find((f) => f.properties.tract_geoid === answer.value(0, 0));
    expect(tract).toBeDefined();
    expect(answer.value(0, 2)).toBe('TX');
    for (const zone of features.get('cdfi_opportunity_zones')!) expect(zone.properties.tract_geoid).toMatch(/^48\d{9}$/);
  });

  it('is deterministic per seed, and another seed makes another world', async () => {
    const again = await writeDemoLayers(join(dir, 'b'), OPTIONS);
    const other = await writeDemoLayers(join(dir, 'c'), { ...OPTIONS, seed: 2 });
    const digest = async (path: string) => createHash('sha256').update(await readFile(path)).digest('hex');
    const differing: string[] = [];
    for (let i = 0; i < files.length; i++) {
      expect(await digest(again[i].path), files[i].source).toBe(await digest(files[i].path));
      if ((await digest(other[i].path)) !== (await digest(files[i].path))) differing.push(files[i].source);
    }
    expect(differing).toContain('usgs_3dep');
    expect(differing).toContain('hifld_substations');
    expect(differing).toContain('census_tiger');
  });
});
