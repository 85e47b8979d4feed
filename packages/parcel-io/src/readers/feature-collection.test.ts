import { describe, expect, it, vi } from 'vitest';
import { ParcelRowError } from '../errors.js';
import { CHUNK_SIZES, lineOf, parseInChunks, thrown } from '../testing/files.js';
import { FeatureCollectionParser } from './feature-collection.js';

const parse = (text: string | Buffer, size = 1 << 20) => parseInChunks(new FeatureCollectionParser(), text, size);
const failure = (text: string, size = 1 << 20) => thrown(() => parse(text, size)) as ParcelRowError;

// Strings full of JSON's structural characters, escapes and multi-byte UTF-8, plus members before
// and after "features" and a feature spread over several lines.
const TRICKY = `\uFEFF{
  "type": "FeatureCollection",
  "name": "parcels {draft] \\"v2\\"",
  "bbox": [-98, 30, -97, 31],
  "crs": { "type": "name", "properties": { "name": "urn:ogc:def:crs:OGC:1.3:CRS84" } },
  "features": [
    {"type":"Feature","properties":{"apn":"A-1","note":"curly { and } brace"},"geometry":{"type":"Point","coordinates":[-97.5,30.5]}},
    {
      "type": "Feature",
      "properties": {
        "apn": "A-2",
        "note": "bracket ] [ and \\"quoted\\" and \\\\ backslash, then \\\\\\" more",
        "nl": "line\\nbreak\\r\\n{\\"x\\": [1]}",
        "unicode": "café ✓ 𝄞",
        "nested": {"a": [1, {"b": "]}"}], "c": null}
      },
      "geometry": {"type": "Polygon", "coordinates": [[[-97, 30], [-96.99, 30], [-96.99, 30.01], [-97, 30]]]}
    }
    ,{"type":"Feature","id":42,"properties":null,"geometry":null}
  ],
  "features_after": {"type": "ignored ]"}
}
`;

describe('FeatureCollectionParser', () => {
  it('cuts out each feature, whatever strings, escapes and nesting it holds', () => {
    const rows = parse(TRICKY);
    expect(rows).toHaveLength(3);
    expect(rows[0]).toEqual({
      line: lineOf(TRICKY, '{"type":"Feature","properties":{"apn":"A-1"'),
      geometry: { type: 'Point', coordinates: [-97.5, 30.5] },
      properties: { apn: 'A-1', note: 'curly { and } brace' },
    });
    expect(rows[1].line).toBe(lineOf(TRICKY, '"apn": "A-2"') - 3);
    expect(rows[1].properties).toEqual({
      apn: 'A-2',
      note: 'bracket ] [ and "quoted" and \\ backslash, then \\" more',
      nl: 'line\nbreak\r\n{"x": [1]}',
      unicode: 'café ✓ 𝄞',
      nested: { a: [1, { b: ']}' }], c: null },
    });
    expect(rows[1].geometry?.type).toBe('Polygon');
    // A Feature's own id joins its properties; null properties are an empty object.
    expect(rows[2]).toEqual({ line: lineOf(TRICKY, '"id":42'), geometry: null, properties: { id: 42 } });
  });

  it('gives the same rows for every way of splitting the file into chunks', () => {
    const whole = parse(TRICKY);
    for (const size of CHUNK_SIZES) expect(parse(TRICKY, size), `chunk size ${size}`).toEqual(whole);
  });

  it('reads members in any order, compact files and empty collections', () => {
    const compact =
      '{"features":[{"type":"Feature","properties":{"a":1},"geometry":null},{"type":"Feature","properties":{"a":2},"geometry":null}],"type":"FeatureCollection"}';
    expect(parse(compact).map((r) => [r.line, r.properties.a])).toEqual([
      [1, 1],
      [1, 2],
    ]);
    expect(parse('{"type":"FeatureCollection","features":[]}')).toEqual([]);
    expect(parse('{"type":"FeatureCollection","features":[ \n ]}\n\n')).toEqual([]);
  });

  it('reads a feature per line (the common layout) as the byte scan reads it, CRLF and odd lines too', () => {
    const feature = (apn: string) => `{"type":"Feature","properties":{"apn":"${apn}","s":"a,}"},"geometry":null}`;
    const lines = [
      '{"type":"FeatureCollection","features":[',
      `${feature('1')},`,
      `  ${feature('2')} ,\r`, // indented, a space before the comma, CRLF
      `${feature('3')}, ${feature('4')},`, // two on a line
      `${feature('5')}`, // no comma: it follows on the next line
      `,${feature('6')},`,
      `${feature('7')}]}`, // the end of the file on the same line
    ];
    const text = lines.join('\n');
    const expected = ['1', '2', '3', '4', '5', '6', '7'].map((apn) => ({ apn, line: lineOf(text, `"apn":"${apn}"`) }));
    for (const size of [1, 7, 64, 1 << 20]) {
      expect(parse(text, size).map((row) => ({ apn: row.properties.apn, line: row.line })), `chunk size ${size}`).toEqual(expected);
    }
  });

  it('refuses a missing "," between features, and a stray or trailing one, the same way in any chunks', () => {
    const feature = '{"type":"Feature","properties":{},"geometry":null}';
    const cases: [string, number, RegExp][] = [
      [`{"features":[\n${feature}\n${feature}\n]}`, 3, /expected "," between features/],
      [`{"features":[\n${feature} ${feature},\n${feature}\n]}`, 2, /expected "," between features/],
      [`{"features":[\n${feature}\n"x"\n]}`, 3, /expected "," between features/],
      [`{"features":[\n"x" ${feature}\n]}`, 2, /expected "," between features/],
      [`{"features":[\n${feature},\n${feature},\n]}`, 4, /trailing ","/],
      [`{"features":[\n${feature}\n,,\n]}`, 3, /expected a feature before ","/],
    ];
    for (const [text, line, reason] of cases) {
      for (const size of [...CHUNK_SIZES, 1 << 20]) {
        expect(failure(text, size), `${JSON.stringify(text)} in chunks of ${size}`).toMatchObject({ line, reason: expect.stringMatching(reason) });
      }
    }
  });

  it('tries a line whole once, not once per feature on it (which read the rest of the line each time)', () => {
    const feature = '{"type":"Feature","properties":{"a":1},"geometry":null}';
    const line = Array.from({ length: 2_000 }, () => feature).join(',');
    const text = `{"type":"FeatureCollection","features":[\n${Array.from({ length: 20 }, () => line).join(',\n')}\n]}`;
    const parses = vi.spyOn(JSON, 'parse');
    try {
      expect(parse(text)).toHaveLength(40_000);
      // One parse per feature, one failed try per line, and a few for the collection's members
      // (a try per feature made it 77,810).
      expect(parses.mock.calls.length).toBeLessThanOrEqual(40_000 + 20 + 5);
    } finally {
      parses.mockRestore();
    }
  });

  it('reports a feature that is not valid JSON at the line where it starts', () => {
    const text = [
      '{"type":"FeatureCollection","features":[',
      '{"type":"Feature","properties":{},"geometry":null},',
      '{"type":"Feature",',
      '  "properties":{"a":01},"geometry":null},',
      '{"type":"Feature","properties":{},"geometry":null}',
      ']}',
    ].join('\n');
    for (const size of [1, 7, 1 << 20]) {
      const error = failure(text, size);
      expect(error).toBeInstanceOf(ParcelRowError);
      expect(error.line).toBe(3);
      expect(error.reason).toMatch(/^invalid JSON/);
      expect(error.message).toMatch(/^line 3: invalid JSON/);
    }
  });

  it('reports bad coordinates and bad geometries at the line of their feature', () => {
    const head = '{"type":"FeatureCollection","features":[\n{"type":"Feature","properties":{},"geometry":null},\n';
    const projected = `${head}{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[3114000.5,10070000.25]}}\n]}`;
    expect(failure(projected)).toMatchObject({ line: 3, reason: expect.stringMatching(/^geometry: longitude 3114000.5 is outside -180..180/) });
    const lat = `${head}\n{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[-97,91]}}\n]}`;
    expect(failure(lat)).toMatchObject({ line: 4, reason: expect.stringMatching(/latitude 91 is outside -90..90/) });
    const open = `${head}{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}}]}`;
    expect(failure(open)).toMatchObject({ line: 3, reason: expect.stringMatching(/ring must be closed/) });
    const notFeature = `${head}{"type":"Polygon","coordinates":[]}]}`;
    expect(failure(notFeature)).toMatchObject({ line: 3, reason: expect.stringMatching(/expected a GeoJSON Feature/) });
  });

  it('rejects files that are not one FeatureCollection, with the line of the problem', () => {
    expect(failure('')).toMatchObject({ line: 1, reason: expect.stringMatching(/empty file/) });
    expect(failure('\n[{"type":"Feature"}]')).toMatchObject({ line: 2, reason: expect.stringMatching(/expected a GeoJSON FeatureCollection/) });
    expect(failure('{"type":"Feature","properties":{},"geometry":null}')).toMatchObject({
      reason: expect.stringMatching(/found "Feature" \(one Feature per line: use the ndjson format\)/),
    });
    expect(failure('{"type":"FeatureCollection"}')).toMatchObject({ reason: expect.stringMatching(/no "features" array/) });
    expect(failure('{"type":"FeatureCollection","features":{}}')).toMatchObject({ reason: '"features" must be an array' });
    expect(failure('{"features":[{"type":"Feature","properties":{},"geometry":null},\n]}')).toMatchObject({
      line: 2,
      reason: expect.stringMatching(/trailing ","/),
    });
    expect(failure('{"features":[]}\n{"features":[]}')).toMatchObject({ line: 2, reason: expect.stringMatching(/after the end/) });
    const crs = '{"type":"FeatureCollection",\n"crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:EPSG::2277"}},"features":[]}';
    expect(failure(crs)).toMatchObject({ line: 2, reason: expect.stringMatching(/EPSG::2277.*reproject/) });
  });

  it('reports a truncated file at the line of the unfinished feature', () => {
    const text = '{"type":"FeatureCollection","features":[\n{"type":"Feature","properties":{},"geometry":null},\n{"type":"Feature","properties":{"a":"unterminated}';
    for (const size of [3, 1 << 20]) {
      expect(failure(text, size)).toMatchObject({ line: 3, reason: expect.stringMatching(/ends inside this feature/) });
    }
    expect(failure('{"type":"FeatureCollection","features":[]')).toMatchObject({ reason: expect.stringMatching(/before the FeatureCollection is closed/) });
  });
});
