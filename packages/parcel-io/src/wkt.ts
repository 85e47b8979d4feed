// Well-known text (and the EWKT `SRID=…;` prefix) to GeoJSON, for the CSV `geometry`/`wkt`
// column. A small recursive-descent parser over character codes: no regex backtracking and no
// intermediate token arrays, because it runs once per CSV row (a million rows per import).
// Syntax only: ranges and ring closure are checked by validateGeometry, as for GeoJSON input.

import { WktError } from './errors.js';
import type { GeoJSONGeometry, Position } from './types.js';

type Dimensions = '' | 'Z' | 'M' | 'ZM';

const OPEN = 0x28; // (
const CLOSE = 0x29; // )
const COMMA = 0x2c;

/** Parses POINT, MULTIPOINT, LINESTRING, MULTILINESTRING, POLYGON, MULTIPOLYGON; EMPTY → null. */
export function parseWkt(text: string): GeoJSONGeometry | null {
  return new WktParser(text).parse();
}

class WktParser {
  private pos = 0;
  private dims: Dimensions = '';

  constructor(private readonly text: string) {}

  parse(): GeoJSONGeometry | null {
    this.srid();
    const word = this.word();
    if (word === '') this.fail('expected a geometry type such as POLYGON');
    const type = this.typeAndDimensions(word);
    this.skipSpace();
    if (this.peekWord() === 'EMPTY') {
      this.word();
      this.end();
      return null;
    }
    const geometry = this.body(type);
    this.end();
    return geometry;
  }

  /** EWKT prefix. Only 4326 is accepted: a projected SRID would need a reprojection we don't do. */
  private srid(): void {
    this.skipSpace();
    if (this.text.slice(this.pos, this.pos + 5).toUpperCase() !== 'SRID=') return;
    const semicolon = this.text.indexOf(';', this.pos);
    if (semicolon < 0) this.fail('SRID=… must end with ";"');
    const srid = this.text.slice(this.pos + 5, semicolon).trim();
    if (!/^\d+$/.test(srid)) this.fail(`invalid SRID ${JSON.stringify(srid)}`);
    if (srid !== '4326') {
      this.fail(`SRID=${srid} is not supported: coordinates must be WGS84 longitude/latitude (SRID=4326)`);
    }
    this.pos = semicolon + 1;
  }

  /** Accepts ISO `POLYGON Z (…)` and the EWKT spelling `POLYGONM (…)`. */
  private typeAndDimensions(word: string): string {
    let type = word;
    for (const suffix of ['ZM', 'Z', 'M'] as const) {
      if (word.endsWith(suffix) && TYPES.has(word.slice(0, -suffix.length))) {
        type = word.slice(0, -suffix.length);
        this.dims = suffix;
        break;
      }
    }
    if (type === 'GEOMETRYCOLLECTION') this.fail('GEOMETRYCOLLECTION is not supported; use MULTIPOLYGON');
    if (!TYPES.has(type)) this.fail(`unknown geometry type ${JSON.stringify(word)}`);
    this.skipSpace();
    const tag = this.peekWord();
    if (tag === 'Z' || tag === 'M' || tag === 'ZM') {
      this.word();
      this.dims = tag;
    }
    return type;
  }

  private body(type: string): GeoJSONGeometry {
    switch (type) {
      case 'POINT': {
        this.expect(OPEN);
        const coordinates = this.position();
        this.expect(CLOSE);
        return { type: 'Point', coordinates };
      }
      case 'MULTIPOINT':
        // Both `MULTIPOINT ((1 2), (3 4))` and the older `MULTIPOINT (1 2, 3 4)` are in use.
        return { type: 'MultiPoint', coordinates: this.list(() => this.optionallyWrappedPosition()) };
      case 'LINESTRING':
        return { type: 'LineString', coordinates: this.positions() };
      case 'MULTILINESTRING':
        return { type: 'MultiLineString', coordinates: this.list(() => this.positions()) };
      case 'POLYGON':
        return { type: 'Polygon', coordinates: this.list(() => this.positions()) };
      default: // MULTIPOLYGON
        return { type: 'MultiPolygon', coordinates: this.list(() => this.list(() => this.positions())) };
    }
  }

  private positions(): Position[] {
    return this.list(() => this.position());
  }

  /** `( item, item, … )` */
  private list<T>(item: () => T): T[] {
    this.expect(OPEN);
    const items: T[] = [];
    for (;;) {
      this.skipSpace();
      // Checked only when a letter comes (a number or "(" usually does): this loop runs per vertex.
      if (isLetter(this.text.charCodeAt(this.pos)) && this.peekWord() === 'EMPTY') {
        this.fail('EMPTY is only supported for a whole geometry');
      }
      items.push(item());
      this.skipSpace();
      const c = this.text.charCodeAt(this.pos);
      if (c === COMMA) {
        this.pos++;
        continue;
      }
      if (c === CLOSE) {
        this.pos++;
        return items;
      }
      this.fail(`expected "," or ")" but found ${this.found()}`);
    }
  }

  private optionallyWrappedPosition(): Position {
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) !== OPEN) return this.position();
    this.pos++;
    const p = this.position();
    this.expect(CLOSE);
    return p;
  }

  /** `x y [z [m]]`; an M value is dropped (GeoJSON has no place for it). */
  private position(): Position {
    const x = this.number();
    const y = this.number();
    const extra: number[] = [];
    for (;;) {
      this.skipSpace();
      if (!isNumberStart(this.text.charCodeAt(this.pos))) break;
      if (extra.length === 2) this.fail('a position has at most 4 numbers');
      extra.push(this.number());
    }
    const expected = this.dims === '' ? -1 : this.dims.length;
    if (expected >= 0 && extra.length !== expected) {
      this.fail(`a ${this.dims} position needs ${2 + expected} numbers, found ${2 + extra.length}`);
    }
    const hasZ = this.dims === 'Z' || this.dims === 'ZM' || (this.dims === '' && extra.length > 0);
    return hasZ ? [x, y, extra[0]] : [x, y];
  }

  private number(): number {
    this.skipSpace();
    const fast = this.simpleDecimal();
    if (fast !== null) return fast;
    const start = this.pos;
    while (this.pos < this.text.length && isNumberChar(this.text.charCodeAt(this.pos))) this.pos++;
    const value = start === this.pos ? NaN : Number(this.text.slice(start, this.pos));
    if (!Number.isFinite(value)) {
      this.pos = start;
      this.fail(`expected a number but found ${this.found()}`);
    }
    return value;
  }

  /**
   * "-97.12345" without slicing a string: at most 15 digits and no exponent, so the digits form an
   * exact integer m and m / 10^k (10^k exact too) is the correctly rounded value, exactly what
   * Number() gives (Clinger's fast path). null, position unchanged, for anything else.
   */
  private simpleDecimal(): number | null {
    const text = this.text;
    let i = this.pos;
    let c = text.charCodeAt(i);
    const negative = c === 0x2d;
    if (negative || c === 0x2b) c = text.charCodeAt(++i);
    let mantissa = 0;
    let digits = 0;
    let decimals = 0;
    while (c >= 0x30 && c <= 0x39) {
      mantissa = mantissa * 10 + (c - 0x30);
      digits++;
      c = text.charCodeAt(++i);
    }
    if (c === 0x2e) {
      c = text.charCodeAt(++i);
      while (c >= 0x30 && c <= 0x39) {
        mantissa = mantissa * 10 + (c - 0x30);
        digits++;
        decimals++;
        c = text.charCodeAt(++i);
      }
    }
    if (digits === 0 || digits > 15 || isNumberChar(c)) return null;
    this.pos = i;
    const value = mantissa / POWERS_OF_TEN[decimals];
    return negative ? -value : value;
  }

  private word(): string {
    this.skipSpace();
    const start = this.pos;
    while (this.pos < this.text.length && isLetter(this.text.charCodeAt(this.pos))) this.pos++;
    return this.text.slice(start, this.pos).toUpperCase();
  }

  private peekWord(): string {
    const start = this.pos;
    const w = this.word();
    this.pos = start;
    return w;
  }

  private expect(code: number): void {
    this.skipSpace();
    if (this.text.charCodeAt(this.pos) !== code) {
      this.fail(`expected "${String.fromCharCode(code)}" but found ${this.found()}`);
    }
    this.pos++;
  }

  private end(): void {
    this.skipSpace();
    if (this.pos < this.text.length) this.fail(`unexpected ${this.found()} after the geometry`);
  }

  private skipSpace(): void {
    while (this.pos < this.text.length && this.text.charCodeAt(this.pos) <= 0x20) this.pos++;
  }

  private found(): string {
    if (this.pos >= this.text.length) return 'the end of the text';
    return JSON.stringify(this.text.slice(this.pos, this.pos + 12));
  }

  private fail(message: string): never {
    throw new WktError(`invalid WKT: ${message}`, this.pos);
  }
}

const POWERS_OF_TEN = Array.from({ length: 16 }, (_, k) => 10 ** k);

const TYPES: ReadonlySet<string> = new Set([
  'POINT',
  'MULTIPOINT',
  'LINESTRING',
  'MULTILINESTRING',
  'POLYGON',
  'MULTIPOLYGON',
  'GEOMETRYCOLLECTION',
]);

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

function isNumberStart(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || c === 0x2d || c === 0x2b || c === 0x2e;
}

function isNumberChar(c: number): boolean {
  return isNumberStart(c) || c === 0x65 || c === 0x45; // e E
}
