import { describe, expect, it } from 'vitest';
import { ParcelRowError } from '../errors.js';
import { CHUNK_SIZES, parseInChunks, thrown } from '../testing/files.js';
import { CsvRecordReader } from './csv-records.js';
import { CsvParser } from './csv.js';

const parse = (text: string, size = 1 << 20) => parseInChunks(new CsvParser(), text, size);
const failure = (text: string, size = 1 << 20) => thrown(() => parse(text, size)) as ParcelRowError;

function records(text: string, size = 1 << 20): [number, string[]][] {
  const reader = new CsvRecordReader();
  const out: [number, string[]][] = [];
  const sink = (fields: string[], line: number) => out.push([line, fields]);
  for (let i = 0; i < text.length; i += size) reader.push(text.slice(i, i + size), sink);
  reader.end(sink);
  return out;
}

describe('CsvRecordReader (RFC 4180)', () => {
  it('handles quoted commas, doubled quotes, line breaks in quotes, CRLF and a missing final newline', () => {
    const text = 'a,b,c\r\n"x, y","say ""hi""",plain\r\n"multi\nline\r\nvalue",," "\r\n\r\nlast,row,"end"';
    const expected: [number, string[]][] = [
      [1, ['a', 'b', 'c']],
      [2, ['x, y', 'say "hi"', 'plain']],
      [3, ['multi\nline\r\nvalue', '', ' ']],
      [7, ['last', 'row', 'end']],
    ];
    for (const size of [1, 2, 3, 7, 1000]) expect(records(text, size), `chunk size ${size}`).toEqual(expected);
  });

  it('keeps a stray quote inside an unquoted field, and a trailing empty field', () => {
    expect(records('12" pipe,b,\n')).toEqual([[1, ['12" pipe', 'b', '']]]);
  });

  it('rejects text after a closing quote and an unterminated quote, at the record line', () => {
    expect(thrown(() => records('a\n"x"y,z\n'))).toMatchObject({ line: 2, reason: expect.stringMatching(/after the closing quote/) });
    expect(thrown(() => records('a\nb\n"open\n\nstill open'))).toMatchObject({ line: 3, reason: expect.stringMatching(/missing closing quote/) });
  });
});

describe('CsvParser', () => {
  const WKT_CSV = [
    'apn,Address,Geometry,acres,note',
    '1-A,"1 Main St, Suite 4",POINT (-97.7 30.3),,"comma, ""quoted"", and',
    'newline"',
    '2-B,2 Oak Ave,"SRID=4326;POLYGON((-97 30, -96.99 30, -96.99 30.01, -97 30))",12.5,',
    '3-C,,,,',
    '4-D,4 Elm,"MULTIPOLYGON(((-97 30,-96.9 30,-96.9 30.1,-97 30)),((-95 30,-94.9 30,-94.9 30.1,-95 30)))",,x',
  ].join('\n');

  it('reads a WKT geometry column; other cells become string properties, empty cells null', () => {
    const rows = parse(WKT_CSV);
    expect(rows.map((r) => r.line)).toEqual([2, 4, 5, 6]);
    expect(rows[0]).toEqual({
      line: 2,
      geometry: { type: 'Point', coordinates: [-97.7, 30.3] },
      properties: { apn: '1-A', Address: '1 Main St, Suite 4', acres: null, note: 'comma, "quoted", and\nnewline' },
    });
    expect(rows[1].geometry).toEqual({ type: 'Polygon', coordinates: [[[-97, 30], [-96.99, 30], [-96.99, 30.01], [-97, 30]]] });
    expect(rows[1].properties).toEqual({ apn: '2-B', Address: '2 Oak Ave', acres: '12.5', note: null });
    expect(rows[2]).toEqual({ line: 5, geometry: null, properties: { apn: '3-C', Address: null, acres: null, note: null } });
    expect(rows[3].geometry?.type).toBe('MultiPolygon');
    for (const size of CHUNK_SIZES) expect(parse(WKT_CSV, size), `chunk size ${size}`).toEqual(rows);
  });

  it('accepts a "wkt" column and a BOM', () => {
    const rows = parse('\uFEFFWKT,apn\r\n"POINT(1 2)",9\r\n');
    expect(rows).toEqual([{ line: 2, geometry: { type: 'Point', coordinates: [1, 2] }, properties: { apn: '9' } }]);
  });

  it('builds a point from lat/lon or latitude/longitude columns', () => {
    expect(parse('apn,lat,lon\nA,30.25,-97.75\nB,,\n')).toEqual([
      { line: 2, geometry: { type: 'Point', coordinates: [-97.75, 30.25] }, properties: { apn: 'A' } },
      { line: 3, geometry: null, properties: { apn: 'B' } },
    ]);
    expect(parse('Latitude,Longitude,apn\n 30.25 , -97.75 ,A\n')[0].geometry).toEqual({ type: 'Point', coordinates: [-97.75, 30.25] });
  });

  it('reports bad WKT, bad coordinates and ragged rows at the line of the record', () => {
    const head = 'apn,geometry\nok,POINT(1 2)\n"multi\nline",POINT(1 2)\n';
    expect(failure(`${head}bad,"POLYGON((1 2, 3 4)"\n`)).toMatchObject({ line: 5, reason: expect.stringMatching(/^geometry: invalid WKT/) });
    expect(failure(`${head}bad,POINT(500000 3000000)\n`)).toMatchObject({ line: 5, reason: expect.stringMatching(/^geometry: longitude 500000/) });
    expect(failure(`${head}bad,"SRID=2277;POINT(1 2)"\n`)).toMatchObject({ line: 5, reason: expect.stringMatching(/SRID=2277 is not supported/) });
    expect(failure(`${head}bad,"POLYGON((0 0, 1 0, 1 1, 0 1))"\n`)).toMatchObject({ line: 5, reason: expect.stringMatching(/must be closed/) });
    expect(failure(`${head}bad,POINT(1 2),extra\n`)).toMatchObject({ line: 5, reason: 'expected 2 fields as in the header, found 3' });
    expect(failure('apn,lat,lon\nA,95,10\n')).toMatchObject({ line: 2, reason: expect.stringMatching(/latitude 95 is outside/) });
    expect(failure('apn,lat,lon\nA,north,10\n')).toMatchObject({ line: 2, reason: 'lat "north" is not a number' });
    expect(failure('apn,lat,lon\nA,30,\n')).toMatchObject({ line: 2, reason: expect.stringMatching(/lon is empty/) });
  });

  it('requires a header with a location and unique, named columns', () => {
    expect(failure('')).toMatchObject({ line: 1, reason: expect.stringMatching(/header row is required/) });
    expect(failure('apn,address\n1,x\n')).toMatchObject({ line: 1, reason: expect.stringMatching(/no "geometry"/) });
    expect(failure('apn,apn,wkt\n')).toMatchObject({ line: 1, reason: expect.stringMatching(/"apn" appears twice/) });
    expect(failure(',apn,wkt\n')).toMatchObject({ line: 1, reason: expect.stringMatching(/column 1 of the header has no name/) });
  });

  it('keeps a column named __proto__ as an ordinary property', () => {
    const [row] = parse('__proto__,wkt\nx,POINT(1 2)\n');
    expect(Object.getPrototypeOf(row.properties)).toBe(Object.prototype);
    expect(Object.keys(row.properties)).toEqual(['__proto__']);
    expect(row.properties['__proto__']).toBe('x');
  });
});
