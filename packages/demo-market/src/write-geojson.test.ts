import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoParcels } from './generate.js';
import { writeDemoGeoJson } from './write-geojson.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'demo-market-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('writeDemoGeoJson', () => {
  it('writes the market as a FeatureCollection, one feature per line', async () => {
    const file = path.join(dir, 'demo.geojson');
    const result = await writeDemoGeoJson(file, { parcels: 2500, seed: 4, market: 'demo-tx' });
    const text = await readFile(file, 'utf8');
    expect(result).toEqual({ path: file, parcels: 2500, bytes: (await stat(file)).size });

    const collection = JSON.parse(text);
    expect(collection.type).toBe('FeatureCollection');
    expect(collection.name).toBe('demo-tx');
    expect(collection.features).toEqual([...generateDemoParcels({ parcels: 2500, seed: 4 })]);

    const lines = text.split('\n');
    expect(lines[0]).toBe('{"type":"FeatureCollection","name":"demo-tx","features":[');
    expect(lines.at(-2)).toBe(']}');
    expect(lines.at(-1)).toBe('');
    const featureLines = lines.slice(1, -2);
    expect(featureLines).toHaveLength(2500);
    for (const [i, line] of featureLines.entries()) {
      const json = i < featureLines.length - 1 ? line.replace(/,$/, '') : line;
      expect(JSON.parse(json).type).toBe('Feature');
    }
  });

  it('writes an empty market as an empty collection', async () => {
    const file = path.join(dir, 'empty.geojson');
    await writeDemoGeoJson(file, { parcels: 0 });
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ type: 'FeatureCollection', name: 'demo-tx', features: [] });
  });

  it('refuses bad options before creating the file', async () => {
    const file = path.join(dir, 'bad.geojson');
    await expect(writeDemoGeoJson(file, { parcels: -5 })).rejects.toThrow(RangeError);
    await expect(stat(file)).rejects.toThrow();
  });

  it('reports a file it cannot write', async () => {
    await expect(writeDemoGeoJson(path.join(dir, 'missing', 'x.geojson'), { parcels: 10 })).rejects.toThrow(/ENOENT/);
  });
});
