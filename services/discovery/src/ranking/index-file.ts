import { open, type FileHandle } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import type { Column, Dictionary } from './columns.js';
import { UnusableIndexFile, type ColumnSource, type RowReader } from './column-source.js';

export { UnusableIndexFile };
import { Utf8Strings } from './utf8-strings.js';
import { restoreIndex, type VintageIndex } from './vintage-index.js';

/**
 * A vintage's ranking index as one local file, laid out so that any one part of it is one
 * positioned read and a typed-array view, no per-row work (parcel keys and string dictionaries
 * stay UTF-8 until asked for: utf8-strings.ts). Opening it reads the header, the keys and their
 * order; each column is read when a ranking first needs it (lazy-columns in vintage-index.ts).
 * Layout (little-endian):
 *
 *   0  "LSVINDEX"            8  format version (u32)   12  header length (u32)
 *   16 crc32 of the header (u32)                        20  zero (u32)
 *   24 header (JSON, space-padded to 8 bytes), then each section on an 8-byte boundary.
 *
 * The header names the vintage, its row count, the fingerprint of the stored columns the file was
 * made from (column-store.ts) and where each section lies with its crc32. The last section holds
 * every row as one record — each number and coded column's bytes for that row, then the record's
 * crc32 — so that the rows of a page are a read a row, not a read a row and column; the file ends
 * with the crc32 of that section (u32) and a zero (u32), known only once it is written.
 *
 * Opening checks every section against its crc32, streamed, keeping only the keys and their
 * order; each later read of a column or a record is checked again (the file may be damaged after).
 */
/** 4: a crc32 per section, and the row records. */
export const INDEX_FILE_VERSION = 4;
const MAGIC = Buffer.from('LSVINDEX', 'latin1');
const PREFIX = 24;
/** Keys, their ends and their order come before the columns. */
const FIXED_SECTIONS = 3;
/** Rows transposed into records at a time while the file is written. */
const RECORD_BLOCK_ROWS = 4096;
const RECORD_CRC = 4;
const TRAILER = 8;
/** Bytes read at a time while the file is checked at open (one buffer, reused). */
const VERIFY_SLICE = 8 * 1024 * 1024;

type Section = [offset: number, length: number, crc: number];
/** A dictionary of strings as their UTF-8 bytes and ends (sections), any other as JSON in the header. */
type StoredDictionary = { type: 'strings'; at: number } | { type: 'values'; values: unknown[] };

interface StoredColumn {
  field: string;
  kind: Column['kind'];
  section: Section;
  width?: number;
  dictionary?: StoredDictionary;
  /** Where the column's bytes lie in a row record (number and coded columns). */
  record?: number;
}

interface Header {
  vintageId: string;
  size: number;
  fingerprint: string;
  /** The keys' UTF-8 bytes, and the byte offset where each ends (u32). */
  keys: Section;
  keyEnds: Section;
  keyOrder: Section;
  /** The string dictionaries' sections, in pairs: bytes, ends. */
  dictionaries: Section[];
  columns: StoredColumn[];
  /** The row records: `size` of `stride` bytes from `offset` (each checked by its own crc). */
  records: { offset: number; stride: number };
}


const bytesOf = (array: Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
const align = (offset: number) => Math.ceil(offset / 8) * 8;

/** The file's bytes, in order (the caller writes them one after another as they come). */
export async function* encodeIndexFile(index: VintageIndex, fingerprint: string): AsyncGenerator<Uint8Array> {
  const keys = Utf8Strings.encode(index.keys);
  const payloads: Uint8Array[] = [keys.bytes, bytesOf(keys.ends), bytesOf(index.rowsByKey)];
  const columns: StoredColumn[] = [];
  const inRecords: { bytes: Uint8Array; width: number; at: number }[] = [];
  let stride = 0;
  // Sections of string dictionaries go after the columns' own: each is [bytes, ends] from `at`.
  const dictionaryPayloads: Uint8Array[] = [];
  for (const [field, column] of index.entries()) {
    if (column.kind === 'number') payloads.push(bytesOf(column.values));
    else if (column.kind === 'coded') payloads.push(bytesOf(column.slots));
    else payloads.push(Buffer.from(JSON.stringify(column.values.map((value) => value ?? null))));
    let dictionary: StoredDictionary | undefined;
    if (column.kind === 'coded') {
      const values = Array.from({ length: column.dictionary.length }, (_, code) => column.dictionary.at(code));
      if (values.every((value) => typeof value === 'string')) {
        const strings = Utf8Strings.encode(values);
        dictionary = { type: 'strings', at: dictionaryPayloads.length };
        dictionaryPayloads.push(strings.bytes, bytesOf(strings.ends));
      } else {
        dictionary = { type: 'values', values };
      }
    }
    let record: number | undefined;
    if (column.kind !== 'mixed') {
      const data = column.kind === 'number' ? column.values : column.slots;
      record = stride;
      inRecords.push({ bytes: bytesOf(data), width: data.BYTES_PER_ELEMENT, at: stride });
      stride += data.BYTES_PER_ELEMENT;
    }
    columns.push({
      field,
      kind: column.kind,
      section: [0, 0, 0],
      ...(column.kind === 'coded' ? { width: column.slots.BYTES_PER_ELEMENT } : {}),
      ...(dictionary ? { dictionary } : {}),
      ...(record !== undefined ? { record } : {}),
    });
  }
  stride += RECORD_CRC;
  const columnPayloads = payloads.length;
  payloads.push(...dictionaryPayloads);
  const crcs: number[] = [];
  for (const payload of payloads) crcs.push(await checksum(payload));
  // Section offsets depend on the header's length, which holds them: lay out with a header of the
  // final size (offsets written as fixed-width numbers would need no second pass, but JSON does).
  const header: Header = {
    vintageId: index.vintageId,
    size: index.size,
    fingerprint,
    keys: [0, 0, 0],
    keyEnds: [0, 0, 0],
    keyOrder: [0, 0, 0],
    columns,
    dictionaries: [],
    records: { offset: 0, stride },
  };
  let headerBytes = Buffer.alloc(0);
  for (let previous = -1; headerBytes.length !== previous; ) {
    previous = headerBytes.length;
    let offset = align(PREFIX + headerBytes.length);
    const sections = payloads.map((payload, at) => {
      const section: Section = [offset, payload.byteLength, crcs[at]!];
      offset = align(offset + payload.byteLength);
      return section;
    });
    [header.keys, header.keyEnds, header.keyOrder] = sections as [Section, Section, Section];
    columns.forEach((column, at) => (column.section = sections[at + FIXED_SECTIONS]!));
    header.dictionaries = sections.slice(columnPayloads);
    header.records.offset = offset;
    const json = Buffer.from(JSON.stringify(header));
    // Padded in bytes (field names may be any text), so the first section starts aligned.
    headerBytes = Buffer.concat([json, Buffer.alloc(align(PREFIX + json.length) - PREFIX - json.length, ' ')]);
  }
  const prefix = Buffer.alloc(PREFIX);
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(INDEX_FILE_VERSION, 8);
  prefix.writeUInt32LE(headerBytes.length, 12);
  prefix.writeUInt32LE(crc32(headerBytes), 16);
  yield prefix;
  yield headerBytes;
  let written = PREFIX + headerBytes.length;
  const sections = [header.keys, header.keyEnds, header.keyOrder, ...columns.map((column) => column.section), ...header.dictionaries];
  for (const [at, payload] of payloads.entries()) {
    if (sections[at]![0] !== written) throw new Error('index file layout did not settle');
    yield payload;
    written += payload.byteLength;
    if (align(written) > written) yield Buffer.alloc(align(written) - written);
    written = align(written);
  }
  if (header.records.offset !== written) throw new Error('index file layout did not settle');
  let recordsCrc = 0;
  for (let first = 0; first < index.size; first += RECORD_BLOCK_ROWS) {
    const block = recordBlock(inRecords, stride, first, Math.min(index.size, first + RECORD_BLOCK_ROWS));
    recordsCrc = crc32(block, recordsCrc);
    yield block;
  }
  const trailer = Buffer.alloc(TRAILER);
  trailer.writeUInt32LE(recordsCrc, 0);
  yield trailer;
}

/** Rows `first` to `end` (exclusive) as records: the columns' bytes side by side, then a crc32. */
function recordBlock(inRecords: { bytes: Uint8Array; width: number; at: number }[], stride: number, first: number, end: number): Buffer {
  const block = Buffer.alloc((end - first) * stride);
  for (const { bytes, width, at } of inRecords) {
    let target = at;
    for (let source = first * width, last = end * width; source < last; source += width, target += stride) {
      for (let byte = 0; byte < width; byte++) block[target + byte] = bytes[source + byte]!;
    }
  }
  for (let start = 0; start < block.length; start += stride) block.writeUInt32LE(crc32(block.subarray(start, start + stride - RECORD_CRC)), start + stride - RECORD_CRC);
  return block;
}

/**
 * The index a file holds, only if its header and keys are whole (crc32), of this format, of this
 * vintage and made from exactly the columns the database now stores (fingerprint); else
 * UnusableIndexFile. Its columns are read when asked for; `onDamaged` is told when one proves
 * damaged then (the read fails with UnusableIndexFile).
 */
export async function readIndexFile(path: string, vintageId: string, fingerprint: string, onDamaged: (reason: string) => void = () => undefined): Promise<VintageIndex> {
  const file = await open(path, 'r');
  try {
    const { size: fileSize } = await file.stat();
    if (fileSize < PREFIX) throw new UnusableIndexFile('not an index file');
    const prefix = await readAt(file, 0, PREFIX);
    if (!prefix.subarray(0, 8).equals(MAGIC)) throw new UnusableIndexFile('not an index file');
    const version = prefix.readUInt32LE(8);
    if (version !== INDEX_FILE_VERSION) throw new UnusableIndexFile(`format version ${version}, not ${INDEX_FILE_VERSION}`);
    const headerLength = prefix.readUInt32LE(12);
    if (PREFIX + headerLength > fileSize) throw new UnusableIndexFile('truncated header');
    const headerBytes = await readAt(file, PREFIX, headerLength);
    if (crc32(headerBytes) !== prefix.readUInt32LE(16)) throw new UnusableIndexFile('header checksum mismatch');
    let header: Header;
    try {
      header = JSON.parse(headerBytes.toString('utf8')) as Header;
    } catch {
      throw new UnusableIndexFile('unreadable header');
    }
    if (header.vintageId !== vintageId) throw new UnusableIndexFile(`made for vintage ${header.vintageId}`);
    if (header.fingerprint !== fingerprint) throw new UnusableIndexFile('made from other stored columns');
    const recordsEnd = header.records.offset + header.size * header.records.stride;
    if (recordsEnd + TRAILER !== fileSize) throw new UnusableIndexFile('truncated');
    const trailer = await readAt(file, recordsEnd, TRAILER);
    if (trailer.readUInt32LE(4) !== 0) throw new UnusableIndexFile('damaged trailer');
    await verifySections(file, [...header.columns.map((column) => column.section), ...header.dictionaries, [header.records.offset, recordsEnd - header.records.offset, trailer.readUInt32LE(0)]]);
    const reader = new IndexFileReader(file, header, fileSize, onDamaged);
    const keys = await reader.strings(header.keys, header.keyEnds, header.size);
    const rowsByKey = new Uint32Array((await reader.section(header.keyOrder, 4)).buffer, 0, header.size);
    const index = restoreIndex(vintageId, keys, rowsByKey, new Map(), reader);
    // The file stays open while the index may read from it (a file replaced or evicted meanwhile
    // is still this one to the open handle).
    closeWhenUnreachable.register(index, file);
    return index;
  } catch (error) {
    await file.close().catch(() => undefined);
    throw error;
  }
}

const closeWhenUnreachable = new FinalizationRegistry<FileHandle>((file) => void file.close().catch(() => undefined));

/** Reads the columns of one file on demand (a ColumnSource of vintage-index.ts). */
class IndexFileReader implements ColumnSource {
  private readonly byField = new Map<string, StoredColumn>();

  constructor(
    private readonly file: FileHandle,
    private readonly header: Header,
    private readonly fileSize: number,
    private readonly onDamaged: (reason: string) => void,
  ) {
    for (const column of header.columns) this.byField.set(column.field, column);
  }

  fields(): string[] {
    return this.header.columns.map((column) => column.field);
  }

  async column(field: string, dictionary: (field: string) => Promise<Dictionary | undefined>): Promise<Column> {
    const stored = this.stored(field);
    const size = this.header.size;
    if (stored.kind === 'number') return { kind: 'number', values: new Float64Array((await this.section(stored.section, 8)).buffer, 0, size) };
    if (stored.kind === 'coded') {
      const Slots = slotsOfWidth(stored);
      const bytes = await this.section(stored.section, stored.width!);
      return { kind: 'coded', slots: new Slots(bytes.buffer as ArrayBuffer, 0, size), dictionary: (await dictionary(field))! };
    }
    const values = JSON.parse((await this.section(stored.section, 0)).toString('utf8')) as unknown[];
    if (values.length !== size) throw this.damaged(`column ${field} has ${values.length} rows, not ${size}`);
    return { kind: 'mixed', values };
  }

  async dictionary(field: string): Promise<Dictionary | undefined> {
    const stored = this.stored(field);
    if (stored.kind !== 'coded') return undefined;
    const dictionary = stored.dictionary;
    if (!dictionary) return [];
    if (dictionary.type === 'values') return dictionary.values;
    const [blob, ends] = [this.header.dictionaries[dictionary.at], this.header.dictionaries[dictionary.at + 1]];
    if (!blob || !ends || ends[1] % 4 !== 0) throw this.damaged('dictionary out of place');
    return this.strings(blob, ends, ends[1] / 4);
  }

  inRecords(field: string): boolean {
    return this.stored(field).record !== undefined;
  }

  async rows(rows: readonly number[]): Promise<RowReader> {
    const { offset, stride } = this.header.records;
    const records = new Map<number, Buffer>();
    await Promise.all(
      [...new Set(rows)].map(async (row) => {
        if (!(row >= 0 && row < this.header.size)) throw new RangeError(`no row ${row}`);
        const record = await readAt(this.file, offset + row * stride, stride);
        if (crc32(record.subarray(0, stride - RECORD_CRC)) !== record.readUInt32LE(stride - RECORD_CRC)) throw this.damaged(`row ${row} checksum mismatch`);
        records.set(row, record);
      }),
    );
    return (field, row, dictionary) => {
      const stored = this.stored(field);
      const record = records.get(row)!;
      const at = stored.record!;
      if (stored.kind === 'number') {
        const value = record.readDoubleLE(at);
        return Number.isNaN(value) ? null : value;
      }
      const slot = stored.width === 1 ? record[at]! : stored.width === 2 ? record.readUInt16LE(at) : record.readUInt32LE(at);
      return slot === 0 ? null : dictionary!.at(slot - 1);
    };
  }

  /** A section in a buffer of its own (so views of it start on an 8-byte boundary), checked. */
  async section([offset, length, crc]: Section, width: number): Promise<Buffer> {
    if (offset % 8 !== 0 || offset + length > this.fileSize || (width > 0 && length !== this.header.size * width)) throw this.damaged('section out of place');
    const bytes = await readAt(this.file, offset, length);
    if ((await checksum(bytes)) !== crc) throw this.damaged('checksum mismatch');
    return bytes;
  }

  async strings(blob: Section, endsSection: Section | undefined, count: number): Promise<Utf8Strings> {
    if (!endsSection || endsSection[1] !== count * 4) throw this.damaged('string offsets out of place');
    const [text, endBytes] = await Promise.all([this.section(blob, 0), this.section(endsSection, 0)]);
    const ends = new Uint32Array(endBytes.buffer, 0, count);
    if (count > 0 && ends[count - 1] !== text.length) throw this.damaged('string offsets do not end with the strings');
    return new Utf8Strings(text, ends);
  }

  private stored(field: string): StoredColumn {
    const stored = this.byField.get(field);
    if (!stored) throw new Error(`no column ${field} in the index file`);
    return stored;
  }

  private damaged(reason: string): UnusableIndexFile {
    this.onDamaged(reason);
    return new UnusableIndexFile(reason);
  }
}

function slotsOfWidth(stored: StoredColumn) {
  const { width } = stored;
  const Slots = width === 1 ? Uint8Array : width === 2 ? Uint16Array : width === 4 ? Uint32Array : undefined;
  if (!Slots) throw new UnusableIndexFile(`column ${stored.field} has slots of width ${width}`);
  return Slots;
}

/** Checks each section's crc32, reading the file a slice at a time into one buffer. */
async function verifySections(file: FileHandle, sections: Section[]): Promise<void> {
  const slice = Buffer.allocUnsafeSlow(VERIFY_SLICE);
  for (const [offset, length, crc] of sections) {
    let value = 0;
    for (let done = 0; done < length; ) {
      const want = Math.min(VERIFY_SLICE, length - done);
      const { bytesRead } = await file.read(slice, 0, want, offset + done);
      if (bytesRead === 0) throw new UnusableIndexFile('file shorter than its header says');
      value = crc32(slice.subarray(0, bytesRead), value);
      done += bytesRead;
    }
    if (value !== crc) throw new UnusableIndexFile('checksum mismatch');
  }
}

/** `length` bytes from `position`, in a Buffer of their own (its views may start at offset 0 with any width). */
async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafeSlow(length);
  let read = 0;
  while (read < length) {
    const { bytesRead } = await file.read(bytes, read, length - read, position + read);
    if (bytesRead === 0) throw new UnusableIndexFile('file shorter than its header says');
    read += bytesRead;
  }
  return bytes;
}

/** The checksum is computed this many bytes at a time, yielding between, so health checks still answer. */
const CHECKSUM_SLICE = 16 * 1024 * 1024;

async function checksum(chunk: Uint8Array): Promise<number> {
  let value = 0;
  for (let start = 0; start < chunk.byteLength; start += CHECKSUM_SLICE) {
    value = crc32(chunk.subarray(start, start + CHECKSUM_SLICE), value);
    if (chunk.byteLength > CHECKSUM_SLICE) await new Promise((resolve) => setImmediate(resolve));
  }
  return value;
}
