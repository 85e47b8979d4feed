import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ParcelRowError } from '../errors.js';
import { makeTempDir, type TempDir } from '../testing/files.js';
import type { SourceRow } from '../types.js';
import { detectFormat, readParcelBatches, readParcelFile, sniffFormat, type ReadProgress } from './index.js';

const FEATURE_1 = '{"type":"Feature","properties":{"apn":"1"},"geometry":{"type":"Point","coordinates":[-97.7,30.3]}}';
const FEATURE_2 = '{"type":"Feature","properties":{"apn":"2"},"geometry":null}';
const COLLECTION = `{"type":"FeatureCollection","features":[\n${FEATURE_1},\n${FEATURE_2}\n]}\n`;
const LINES = `${FEATURE_1}\n${FEATURE_2}\n`;
const CSV = 'apn,wkt\n1,POINT(-97.7 30.3)\n2,\n';

let dir: TempDir;
beforeAll(async () => {
  dir = await makeTempDir();
});
afterAll(() => dir.remove());

async function collect(path: string, options?: Parameters<typeof readParcelFile>[1]): Promise<SourceRow[]> {
  const rows: SourceRow[] = [];
  for await (const row of readParcelFile(path, options)) rows.push(row);
  return rows;
}

describe('readParcelFile', () => {
  it('reads each format from its extension, with the same rows', async () => {
    const cases: [string, string, number[]][] = [
      ['a.geojson', COLLECTION, [2, 3]],
      ['a.json', COLLECTION, [2, 3]],
      ['a.ndjson', LINES, [1, 2]],
      ['a.geojsonl', LINES, [1, 2]],
      ['a.jsonl', LINES, [1, 2]],
      ['a.CSV', CSV, [2, 3]],
    ];
    for (const [name, content, lines] of cases) {
      const rows = await collect(await dir.write(name, content));
      expect(rows.map((r) => r.line), name).toEqual(lines);
      expect(rows.map((r) => r.properties.apn), name).toEqual(['1', '2']);
      expect(rows[0].geometry, name).toEqual({ type: 'Point', coordinates: [-97.7, 30.3] });
      expect(rows[1].geometry, name).toBeNull();
    }
  });

  it('sniffs the format when the extension does not say', async () => {
    expect(await detectFormat(await dir.write('fc.txt', `  \n${COLLECTION}`))).toBe('geojson');
    expect(await detectFormat(await dir.write('lines.dat', LINES))).toBe('ndjson');
    expect(await detectFormat(await dir.write('table', CSV))).toBe('csv');
    expect(await detectFormat(await dir.write('one-line-fc', COLLECTION.replaceAll('\n', '')))).toBe('geojson');
    expect(sniffFormat(Buffer.from('\u001e{"type":"Feature"}\n'))).toBe('ndjson');
    expect(() => sniffFormat(Buffer.from(' \n'))).toThrow(/empty file/);
    expect(await collect(await dir.write('sniffed', LINES))).toHaveLength(2);
  });

  it('lets the caller force a format', async () => {
    const path = await dir.write('mislabelled.json', LINES);
    await expect(collect(path)).rejects.toThrow(ParcelRowError); // read as a FeatureCollection
    expect(await collect(path, { format: 'ndjson' })).toHaveLength(2);
  });

  it('reports progress in bytes up to the file size, and reads in small chunks alike', async () => {
    const path = await dir.write('progress.geojson', COLLECTION);
    const seen: ReadProgress[] = [];
    const rows = await collect(path, { chunkSize: 16, onProgress: (p) => seen.push(p) });
    expect(rows.map((r) => r.properties.apn)).toEqual(['1', '2']);
    const size = Buffer.byteLength(COLLECTION);
    expect(seen.length).toBe(Math.ceil(size / 16));
    expect(seen.every((p) => p.totalBytes === size)).toBe(true);
    expect(seen.map((p) => p.bytesRead)).toEqual([...seen.map((p) => p.bytesRead)].sort((a, b) => a - b));
    expect(seen.at(-1)?.bytesRead).toBe(size);
  });

  it('yields batches per chunk, and stops at the first bad row with its line', async () => {
    const batches: SourceRow[][] = [];
    for await (const batch of readParcelBatches(await dir.write('b.ndjson', LINES.repeat(3)), { chunkSize: 64 })) batches.push(batch);
    expect(batches.flat().map((r) => r.line)).toEqual([1, 2, 3, 4, 5, 6]);

    const bad = await dir.write('bad.ndjson', `${LINES}{"type":"Feature"\n${LINES}`);
    const rows: SourceRow[] = [];
    const error = await (async () => {
      try {
        for await (const row of readParcelFile(bad)) rows.push(row);
      } catch (e) {
        return e;
      }
    })();
    expect(rows).toHaveLength(2);
    expect(error).toBeInstanceOf(ParcelRowError);
    expect(error).toMatchObject({ line: 3 });
  });

  it('fails plainly on a missing file', async () => {
    await expect(collect(`${dir.path}/missing.csv`)).rejects.toThrow(/ENOENT/);
  });
});
