// RFC 4180 records from text that arrives in pieces: quoted fields may hold commas, doubled
// quotes and line breaks, and a record may straddle any number of chunks. A character-level state
// machine whose state survives between chunks, so every character is looked at exactly once.

import { ParcelRowError } from '../errors.js';

const QUOTE = 0x22;
const COMMA = 0x2c;
const LF = 0x0a;
const CR = 0x0d;

const FIELD_START = 0;
const UNQUOTED = 1;
const QUOTED = 2;
const QUOTE_IN_QUOTED = 3; // a quote inside a quoted field: either doubled ("") or the closing one

/** Receives each record's fields and the 1-based line its first character is on. */
export type RecordSink = (fields: string[], line: number) => void;

export class CsvRecordReader {
  private state = FIELD_START;
  private fields: string[] = [];
  /** The current field's text from earlier chunks (and unescaped quotes). */
  private field = '';
  private line = 1;
  private recordLine = 1;

  push(text: string, emit: RecordSink): void {
    const n = text.length;
    let state = this.state;
    let runStart = 0; // start, in `text`, of the current field's not-yet-copied characters
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      switch (state) {
        case FIELD_START:
          if (c === QUOTE) {
            state = QUOTED;
            runStart = i + 1;
          } else if (c === COMMA) {
            this.fields.push('');
          } else if (c === LF) {
            this.fields.push('');
            this.endRecord(emit);
          } else {
            state = UNQUOTED;
            runStart = i;
          }
          break;
        case UNQUOTED:
          // RFC 4180 forbids a quote inside an unquoted field; real files have them ("12"" pipe")
          // and they are kept literally rather than failing the import.
          if (c === COMMA) {
            this.fields.push(this.field + text.slice(runStart, i));
            this.field = '';
            state = FIELD_START;
          } else if (c === LF) {
            this.fields.push(withoutTrailingCr(this.field + text.slice(runStart, i)));
            this.field = '';
            this.endRecord(emit);
            state = FIELD_START;
          }
          break;
        case QUOTED:
          if (c === QUOTE) {
            this.field += text.slice(runStart, i);
            state = QUOTE_IN_QUOTED;
          } else if (c === LF) {
            this.line++;
          }
          break;
        default: // QUOTE_IN_QUOTED
          if (c === QUOTE) {
            this.field += '"';
            state = QUOTED;
            runStart = i + 1;
          } else if (c === COMMA) {
            this.fields.push(this.field);
            this.field = '';
            state = FIELD_START;
          } else if (c === LF) {
            this.fields.push(this.field);
            this.field = '';
            this.endRecord(emit);
            state = FIELD_START;
          } else if (c !== CR) {
            throw new ParcelRowError(
              this.recordLine,
              `unexpected ${JSON.stringify(text[i])} after the closing quote of field ${this.fields.length + 1}`,
            );
          }
      }
    }
    // The field goes on in the next piece of text.
    if (state === UNQUOTED || state === QUOTED) this.field += text.slice(runStart);
    this.state = state;
  }

  /** End of input: emits the last record (files need not end with a newline). */
  end(emit: RecordSink): void {
    switch (this.state) {
      case QUOTED:
        throw new ParcelRowError(this.recordLine, 'the file ends inside a quoted field (missing closing quote)');
      case UNQUOTED:
        this.fields.push(withoutTrailingCr(this.field));
        break;
      case QUOTE_IN_QUOTED:
        this.fields.push(this.field);
        break;
      default:
        if (this.fields.length === 0) return;
        this.fields.push('');
    }
    this.field = '';
    this.state = FIELD_START;
    this.emitRecord(emit);
  }

  private endRecord(emit: RecordSink): void {
    this.emitRecord(emit);
    this.line++;
    this.recordLine = this.line;
  }

  private emitRecord(emit: RecordSink): void {
    const fields = this.fields;
    this.fields = [];
    // A blank line (or a lone CR) is no record; skipping it tolerates trailing blank lines.
    if (fields.length === 1 && fields[0] === '') return;
    emit(fields, this.recordLine);
  }
}

function withoutTrailingCr(text: string): string {
  return text.charCodeAt(text.length - 1) === CR ? text.slice(0, -1) : text;
}
