import { describe, expect, it } from 'vitest';
import { ParcelRowError } from '../errors.js';
import { CHUNK_SIZES, parseInChunks, thrown } from '../testing/files.js';
import { NdjsonParser } from './ndjson.js';

const parse = (text: string, size = 1 << 20) => parseInChunks(new NdjsonParser(), text, size);
const failure = (text: string, size = 1 << 20) => thrown(() => parse(text, size)) as ParcelRowError;

const feature = (apn: string, extra = '') =>
  `{"type":"Feature","properties":{"apn":"${apn}"${extra}},"geometry":{"type":"Point","coordinates":[-97.7,30.3]}}`;

describe('NdjsonParser', () => {
  it('reads one Feature per line with its line number, skipping blank lines', () => {
    const text = [
      `\uFEFF${feature('1')}`,
      '',
      `  ${feature('2', ',"note":"braces { ] and \\"quotes\\"\\nnewline"')}  `,
      '\t',
      `\u001e${feature('3')}`, // RFC 8142 record separator
      feature('4'),
    ].join('\r\n');
    const rows = parse(text); // no newline after the last line
    expect(rows.map((r) => [r.line, r.properties.apn])).toEqual([
      [1, '1'],
      [3, '2'],
      [5, '3'],
      [6, '4'],
    ]);
    expect(rows[1].properties.note).toBe('braces { ] and "quotes"\nnewline');
    expect(rows[0].geometry).toEqual({ type: 'Point', coordinates: [-97.7, 30.3] });
    for (const size of CHUNK_SIZES) expect(parse(text, size), `chunk size ${size}`).toEqual(rows);
  });

  it('reports bad JSON, non-features and bad coordinates at their line', () => {
    const good = feature('ok');
    for (const size of [1, 5, 1 << 20]) {
      expect(failure(`${good}\n${good}\n{"type":"Feature",,}\n${good}\n`, size)).toMatchObject({
        line: 3,
        reason: expect.stringMatching(/^invalid JSON/),
      });
    }
    expect(failure(`${good}\n\n[1,2]\n`)).toMatchObject({ line: 3, reason: expect.stringMatching(/expected a GeoJSON Feature object, got an array/) });
    expect(failure(`{"type":"FeatureCollection","features":[]}\n`)).toMatchObject({
      line: 1,
      reason: expect.stringMatching(/use the geojson format/),
    });
    const swapped = '{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[30.3,-97.7]}}';
    expect(failure(`${good}\n${swapped}`)).toMatchObject({ line: 2, reason: expect.stringMatching(/latitude -97.7 is outside -90..90/) });
    const props = '{"type":"Feature","properties":[1],"geometry":null}';
    expect(failure(props)).toBeInstanceOf(ParcelRowError);
  });

  it('reads an empty file as no rows', () => {
    expect(parse('')).toEqual([]);
    expect(parse('\n\n')).toEqual([]);
  });
});
