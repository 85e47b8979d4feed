// Newline-delimited GeoJSON: one Feature per line (also RFC 8142 GeoJSON text sequences, whose
// records start with an RS byte). Lines are found with Buffer.indexOf, which is memchr-fast;
// only a line that straddles chunks is copied.

import type { SourceRow } from '../types.js';
import type { GeometryCheck } from '../validate-geometry.js';
import { parseFeature } from './feature.js';
import type { RowParser } from './row-parser.js';

const LF = 0x0a;

export class NdjsonParser implements RowParser {
  constructor(private readonly check?: GeometryCheck) {}

  private line = 0;
  private pieces: Buffer[] = [];

  push(chunk: Buffer, rows: SourceRow[]): void {
    let start = 0;
    for (;;) {
      const newline = chunk.indexOf(LF, start);
      if (newline < 0) break;
      this.line++;
      this.handle(this.take(chunk, start, newline), rows);
      start = newline + 1;
    }
    if (start < chunk.length) this.pieces.push(chunk.subarray(start));
  }

  end(rows: SourceRow[]): void {
    if (this.pieces.length > 0) {
      this.line++;
      this.handle(this.take(Buffer.alloc(0), 0, 0), rows);
    }
  }

  private take(chunk: Buffer, start: number, end: number): string {
    if (this.pieces.length === 0) return chunk.toString('utf8', start, end);
    this.pieces.push(chunk.subarray(start, end));
    const text = Buffer.concat(this.pieces).toString('utf8');
    this.pieces = [];
    return text;
  }

  private handle(text: string, rows: SourceRow[]): void {
    let from = 0;
    // A BOM on the first line, an RS before each record of a GeoJSON text sequence.
    while (from < text.length && (text.charCodeAt(from) === 0xfeff || text.charCodeAt(from) === 0x1e)) from++;
    const body = from === 0 ? text : text.slice(from);
    if (isBlank(body)) return;
    rows.push(parseFeature(body, this.line, this.check));
  }
}

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}
