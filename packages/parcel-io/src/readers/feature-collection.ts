// A streaming reader of one GeoJSON FeatureCollection. JSON.parse of the whole file would hold
// the file and every parsed feature at once (gigabytes for a county); instead this scans bytes
// with just enough JSON state (inside a string? escaped? nesting depth) to cut each element of
// the top-level "features" array out of the stream and JSON.parse it alone. A feature alone on
// its line (the usual layout) is parsed straight from the line (see featureOnItsLine).
//
// Structural bytes of JSON are ASCII and never occur inside a multi-byte UTF-8 sequence, so
// scanning bytes (not decoded text) is safe, and each element is decoded once, whole.

import { ParcelRowError, errorMessage } from '../errors.js';
import type { SourceRow } from '../types.js';
import type { GeometryCheck } from '../validate-geometry.js';
import { featureToRow, parseFeature } from './feature.js';
import type { RowParser } from './row-parser.js';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LF = 0x0a;
const CR = 0x0d;
const TAB = 0x09;
const SPACE = 0x20;
const COMMA = 0x2c;
const COLON = 0x3a;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const BOM = [0xef, 0xbb, 0xbf];

/** What the bytes being collected are: nothing, a top-level member name, its value, or a feature. */
const NONE = 0;
const KEY = 1;
const VALUE = 2;
const ELEMENT = 3;

export interface FeatureCollectionOptions extends GeometryCheck {
  /**
   * Receives the collection's `crs` member (and its line) in place of the default check, which
   * refuses anything but WGS84: for a caller that reprojects.
   */
  onCrs?: (crs: unknown, line: number) => void;
}

export class FeatureCollectionParser implements RowParser {
  constructor(private readonly options: FeatureCollectionOptions = {}) {}

  // Scanner state, carried from chunk to chunk.
  private line = 1;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** How much of a leading BOM has been skipped; -1 once past the start of the file. */
  private bomIndex = 0;

  // Top-level object state.
  private opened = false;
  private closed = false;
  private expectKey = true;
  private key: string | null = null;
  private inFeatures = false;
  private sawFeatures = false;
  private afterComma = false;
  /**
   * The last element has ended (its "}", "]" or '"' went by, or it was read whole from its line):
   * only "," or "]" may follow.
   */
  private elementDone = false;

  // The bytes being collected: from capStart in the current chunk, after `pieces` from earlier ones.
  private capKind = NONE;
  private capStart = 0;
  private capLine = 0;
  private pieces: Buffer[] = [];

  push(chunk: Buffer, rows: SourceRow[]): void {
    const n = chunk.length;
    let i = 0;
    // A UTF-8 BOM (EF BB BF) may open the file, and a tiny first chunk may hold only part of it.
    while (this.bomIndex >= 0 && i < n) {
      if (chunk[i] === BOM[this.bomIndex]) {
        i++;
        this.bomIndex = this.bomIndex === BOM.length - 1 ? -1 : this.bomIndex + 1;
      } else {
        this.bomIndex = -1;
      }
    }
    // Hot state in locals: this loop sees every byte of the file.
    let line = this.line;
    let depth = this.depth;
    let inString = this.inString;
    let escaped = this.escaped;

    for (; i < n; i++) {
      const b = chunk[i];
      if (inString) {
        if (escaped) escaped = false;
        else if (b === BACKSLASH) escaped = true;
        else if (b === QUOTE) {
          inString = false;
          if (depth === 1 && this.capKind === KEY) this.endKey(chunk, i + 1);
          else if (depth === 2 && this.capKind === ELEMENT) this.elementDone = true; // a string element
        } else if (b === LF) line++; // invalid in JSON, but keep the count right for later rows
        continue;
      }
      if (depth > 2) {
        // Inside a feature (or deep in another member): only nesting and strings matter.
        if (b === QUOTE) inString = true;
        else if (b === LBRACE || b === LBRACKET) depth++;
        else if (b === RBRACE || b === RBRACKET) {
          // Back at the "features" array: the element just closed.
          if (--depth === 2 && this.capKind === ELEMENT) this.elementDone = true;
        } else if (b === LF) line++;
        continue;
      }
      if (b === LF) {
        line++;
        continue;
      }
      if (b === SPACE || b === CR || b === TAB) continue;

      if (depth === 0) {
        if (b === LBRACE && !this.opened) {
          this.opened = true;
          depth = 1;
          continue;
        }
        throw new ParcelRowError(
          line,
          this.opened ? 'unexpected data after the end of the FeatureCollection' : 'expected a GeoJSON FeatureCollection (a JSON object)',
        );
      }

      if (depth === 1) {
        if (b === QUOTE) {
          inString = true;
          if (this.expectKey) this.startCapture(KEY, i, line);
          else this.startValue(i, line);
        } else if (b === COLON) {
          if (!this.expectKey || this.key === null) throw new ParcelRowError(line, 'unexpected ":" in the FeatureCollection');
          this.expectKey = false;
        } else if (b === COMMA) {
          this.endMember(chunk, i);
        } else if (b === RBRACE) {
          this.endMember(chunk, i);
          depth = 0;
          this.closed = true;
        } else {
          if (this.expectKey) throw new ParcelRowError(line, 'expected a member name in the FeatureCollection');
          if (this.key === 'features') {
            if (b !== LBRACKET) throw new ParcelRowError(line, '"features" must be an array');
            this.inFeatures = true;
            this.sawFeatures = true;
            this.afterComma = false;
          } else {
            this.startValue(i, line);
          }
          if (b === LBRACE || b === LBRACKET) depth = 2;
          else if (b === RBRACKET) throw new ParcelRowError(line, 'unexpected "]" in the FeatureCollection');
        }
        continue;
      }

      // depth === 2
      if (this.inFeatures) {
        if (b === COMMA) {
          if (this.capKind === ELEMENT) rows.push(this.endElement(chunk, i));
          else if (this.elementDone) this.elementDone = false; // after a feature read from its line
          else throw new ParcelRowError(line, 'expected a feature before ","');
          this.afterComma = true;
        } else if (b === RBRACKET) {
          if (this.capKind === ELEMENT) rows.push(this.endElement(chunk, i));
          else if (this.afterComma) throw new ParcelRowError(line, 'trailing "," after the last feature');
          this.elementDone = false;
          this.inFeatures = false;
          depth = 1;
        } else {
          if (this.elementDone) throw new ParcelRowError(line, 'expected "," between features');
          if (b === LBRACE && this.capKind === NONE && startsLine(chunk, i)) {
            const lineEnd = this.featureOnItsLine(chunk, i, line, rows);
            if (lineEnd !== -1) {
              i = lineEnd - 1; // the line feed is counted by the next round
              continue;
            }
          }
          if (this.capKind !== ELEMENT) this.startCapture(ELEMENT, i, line);
          if (b === QUOTE) inString = true;
          else if (b === LBRACE || b === LBRACKET) depth = 3;
          else if (b === RBRACE) throw new ParcelRowError(line, 'unexpected "}" in the "features" array');
        }
        continue;
      }
      // depth 2 inside another member's value ("bbox": [...], "crs": {...}).
      if (b === QUOTE) inString = true;
      else if (b === LBRACE || b === LBRACKET) depth = 3;
      else if (b === RBRACE || b === RBRACKET) depth = 1;
    }

    this.line = line;
    this.depth = depth;
    this.inString = inString;
    this.escaped = escaped;
    if (this.capKind !== NONE) {
      // The element continues in the next chunk: keep this chunk's part of it (a view, no copy).
      this.pieces.push(chunk.subarray(this.capStart));
      this.capStart = 0;
    }
  }

  end(): void {
    if (this.capKind === ELEMENT) {
      throw new ParcelRowError(this.capLine, 'the file ends inside this feature (truncated file?)');
    }
    if (!this.opened) throw new ParcelRowError(this.line, 'expected a GeoJSON FeatureCollection, found an empty file');
    if (!this.closed) throw new ParcelRowError(this.line, 'the file ends before the FeatureCollection is closed (truncated file?)');
    if (!this.sawFeatures) throw new ParcelRowError(1, 'the FeatureCollection has no "features" array');
  }

  /**
   * The common layout, one feature per line: when the rest of the line from `start` is a whole
   * JSON object (and a "," after it, maybe), it is that feature, parsed without scanning its
   * bytes (the scan was a tenth of an import's CPU). Answers where the line ends, or -1 when the
   * line is anything else (a feature over several lines, two on one line, the end of the file),
   * which the byte scan then reads as before. A line feed is never inside a JSON string, so a
   * line that parses as one object is one element.
   */
  private featureOnItsLine(chunk: Buffer, start: number, line: number, rows: SourceRow[]): number {
    const lineEnd = chunk.indexOf(LF, start);
    if (lineEnd === -1) return -1;
    let end = trimEnd(chunk, start, lineEnd);
    const comma = chunk[end - 1] === COMMA;
    if (comma) end = trimEnd(chunk, start, end - 1);
    if (chunk[end - 1] !== RBRACE) return -1;
    let value: unknown;
    try {
      value = JSON.parse(chunk.toString('utf8', start, end));
    } catch {
      return -1; // the byte scan finds where it really ends, or reports it
    }
    rows.push(featureToRow(value, line, this.options));
    this.afterComma = comma;
    this.elementDone = !comma;
    return lineEnd;
  }

  private startCapture(kind: number, i: number, line: number): void {
    this.capKind = kind;
    this.capStart = i;
    this.capLine = line;
  }

  /** The collected bytes up to `end` (exclusive) in `chunk`, decoded; collection stops. */
  private finishCapture(chunk: Buffer, end: number): string {
    this.capKind = NONE;
    this.elementDone = false;
    if (this.pieces.length === 0) return chunk.toString('utf8', this.capStart, end);
    this.pieces.push(chunk.subarray(this.capStart, end));
    const text = Buffer.concat(this.pieces).toString('utf8');
    this.pieces = [];
    return text;
  }

  private endKey(chunk: Buffer, end: number): void {
    const line = this.capLine;
    try {
      this.key = JSON.parse(this.finishCapture(chunk, end)) as string;
    } catch (error) {
      throw new ParcelRowError(line, `invalid member name in the FeatureCollection: ${errorMessage(error)}`);
    }
  }

  private endElement(chunk: Buffer, end: number): SourceRow {
    const line = this.capLine;
    return parseFeature(this.finishCapture(chunk, end), line, this.options);
  }

  /** Only "type" and "crs" are worth keeping: they tell us whether the file is what we expect. */
  private startValue(i: number, line: number): void {
    if (this.capKind === NONE && (this.key === 'type' || this.key === 'crs')) this.startCapture(VALUE, i, line);
  }

  private endMember(chunk: Buffer, end: number): void {
    if (this.capKind === VALUE) {
      const line = this.capLine;
      const text = this.finishCapture(chunk, end);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw new ParcelRowError(line, `invalid "${this.key}" in the FeatureCollection: ${errorMessage(error)}`);
      }
      if (this.key === 'type') checkType(value, line);
      else (this.options.onCrs ?? checkCrs)(value, line);
    }
    this.expectKey = true;
    this.key = null;
  }
}

function checkType(value: unknown, line: number): void {
  if (value === 'FeatureCollection') return;
  const hint = value === 'Feature' ? ' (one Feature per line: use the ndjson format)' : '';
  throw new ParcelRowError(line, `expected "type": "FeatureCollection", found ${JSON.stringify(value)}${hint}`);
}

/**
 * The 2008 GeoJSON `crs` member: files exported in a projected CRS (state plane, UTM) still say
 * so here, and refusing them up front beats a "longitude out of range" on the first feature.
 */
function checkCrs(value: unknown, line: number): void {
  if (value === null) return;
  const name = (value as { properties?: { name?: unknown } } | undefined)?.properties?.name;
  if (typeof name === 'string' && /CRS84|EPSG:{1,2}(\d+:)?4326$|^WGS ?84$/i.test(name)) return;
  throw new ParcelRowError(
    line,
    `"crs" ${JSON.stringify(name ?? value)} is not WGS84 longitude/latitude; reproject the file to EPSG:4326`,
  );
}

/**
 * Whether only blanks stand between the line's start and `at`. The whole-line read is tried only
 * there, so a line of many features costs one try, not one per feature (each try reads the rest
 * of the line). At a chunk's start the answer is no: the byte scan reads that line.
 */
function startsLine(chunk: Buffer, at: number): boolean {
  for (let before = at - 1; before >= 0; before--) {
    const b = chunk[before];
    if (b === LF) return true;
    if (b !== SPACE && b !== TAB && b !== CR) return false;
  }
  return false;
}

/** `end` moved back over spaces, tabs and carriage returns, not before `start`. */
function trimEnd(chunk: Buffer, start: number, end: number): number {
  while (end > start && (chunk[end - 1] === SPACE || chunk[end - 1] === TAB || chunk[end - 1] === CR)) end--;
  return end;
}
