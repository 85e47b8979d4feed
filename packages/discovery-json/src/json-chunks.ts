/**
 * JSON text written piece by piece, with JSON a service already encoded (an open object's
 * `*_json` bytes) spliced in as bytes: the big parts of an answer (facts, provenance, geometry)
 * are never decoded and re-encoded on their way to the client.
 */
export class JsonChunks {
  private readonly parts: Uint8Array[] = [];
  private text = '';

  /** Appends JSON text. */
  write(text: string): this {
    this.text += text;
    return this;
  }

  /** Appends UTF-8 JSON bytes as they are; `empty` is written instead of zero bytes. */
  raw(bytes: Uint8Array, empty = 'null'): this {
    if (bytes.length === 0) return this.write(empty);
    this.flush();
    this.parts.push(bytes);
    return this;
  }

  /** The whole text as UTF-8 bytes (what a REST answer sends). */
  bytes(): Uint8Array {
    this.flush();
    return this.parts.length === 1 ? this.parts[0]! : Buffer.concat(this.parts);
  }

  /** The whole text (for a caller that parses or stores it). */
  toString(): string {
    const bytes = this.bytes();
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  }

  private flush(): void {
    if (this.text.length === 0) return;
    this.parts.push(Buffer.from(this.text, 'utf8'));
    this.text = '';
  }
}

/** What JSON.stringify escapes in a string: quotes, backslashes, control characters, surrogates. */
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;

/** A string as JSON text, as JSON.stringify writes it; most strings need no escape and skip it. */
export function stringJson(value: string): string {
  return NEEDS_ESCAPE.test(value) ? JSON.stringify(value) : `"${value}"`;
}

/** A string, number, boolean or null as JSON text (a null or absent optional field is null). */
export function scalarJson(value: string | number | boolean | null | undefined): string {
  return value === undefined ? 'null' : typeof value === 'string' ? stringJson(value) : JSON.stringify(value);
}

/** A list of strings as a JSON array. */
export function stringsJson(values: readonly string[]): string {
  return values.length === 0 ? '[]' : JSON.stringify(values);
}
