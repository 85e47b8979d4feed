import { open } from 'node:fs/promises';
import { crc32 } from 'node:zlib';
import type { Column, Dictionary } from './columns.js';
import { Utf8Strings } from './utf8-strings.js';
import { restoreIndex, type VintageIndex } from './vintage-index.js';

/**
 * A vintage's ranking index as one local file, laid out so that reading it back is one read and
 * typed-array views, no per-row work (parcel keys and string dictionaries stay UTF-8 until asked
 * for: utf8-strings.ts).
 * Layout (little-endian):
 *
 *   0  "LSVINDEX"            8  format version (u32)   12  header length (u32)
 *   16 crc32 of every byte from 24 to the end (u32)     20  zero (u32)
 *   24 header (JSON, space-padded to 8 bytes), then each section on an 8-byte boundary.
 *
 * The header names the vintage, its row count, the fingerprint of the stored columns the file was
 * made from (column-store.ts) and where each section lies.
 */
/** 3: coded columns hold slots (0 "no value") in u8, u16 or u32 (`width`), number dictionaries included. */
export const INDEX_FILE_VERSION = 3;
const MAGIC = Buffer.from('LSVINDEX', 'latin1');
const PREFIX = 24;
/** Keys, their ends and their order come before the columns. */
const FIXED_SECTIONS = 3;
/** The checksum is computed this many bytes at a time, yielding between, so health checks still answer. */
const CHECKSUM_SLICE = 16 * 1024 * 1024;

type Section = [offset: number, length: number];
/** A dictionary of strings as their UTF-8 bytes and ends (sections), any other as JSON in the header. */
type StoredDictionary = { type: 'strings'; at: number } | { type: 'values'; values: unknown[] };

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
  columns: { field: string; kind: Column['kind']; section: Section; width?: number; dictionary?: StoredDictionary }[];
}

/** Why a file was not used: it is rebuilt from the database. */
export class UnusableIndexFile extends Error {}

const bytesOf = (array: Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
const align = (offset: number) => Math.ceil(offset / 8) * 8;

/** The file's bytes, in order (the caller writes them one after another). */
export async function encodeIndexFile(index: VintageIndex, fingerprint: string): Promise<Uint8Array[]> {
  const keys = Utf8Strings.encode(index.keys);
  const payloads: Uint8Array[] = [keys.bytes, bytesOf(keys.ends), bytesOf(index.rowsByKey)];
  const columns: Header['columns'] = [];
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
    columns.push({ field, kind: column.kind, section: [0, 0], ...(column.kind === 'coded' ? { width: column.slots.BYTES_PER_ELEMENT } : {}), ...(dictionary ? { dictionary } : {}) });
  }
  const columnPayloads = payloads.length;
  payloads.push(...dictionaryPayloads);
  // Section offsets depend on the header's length, which holds them: lay out with a header of the
  // final size (offsets written as fixed-width numbers would need no second pass, but JSON does).
  const header: Header = { vintageId: index.vintageId, size: index.size, fingerprint, keys: [0, 0], keyEnds: [0, 0], keyOrder: [0, 0], columns, dictionaries: [] };
  let headerBytes = Buffer.alloc(0);
  for (let previous = -1; headerBytes.length !== previous; ) {
    previous = headerBytes.length;
    let offset = align(PREFIX + headerBytes.length);
    const sections = payloads.map((payload) => {
      const section: Section = [offset, payload.byteLength];
      offset = align(offset + payload.byteLength);
      return section;
    });
    [header.keys, header.keyEnds, header.keyOrder] = sections as [Section, Section, Section];
    columns.forEach((column, at) => (column.section = sections[at + FIXED_SECTIONS]!));
    header.dictionaries = sections.slice(columnPayloads);
    const json = Buffer.from(JSON.stringify(header));
    // Padded in bytes (field names may be any text), so the first section starts aligned.
    headerBytes = Buffer.concat([json, Buffer.alloc(align(PREFIX + json.length) - PREFIX - json.length, ' ')]);
  }
  const body: Uint8Array[] = [headerBytes];
  let written = PREFIX + headerBytes.length;
  const sections = [header.keys, header.keyEnds, header.keyOrder, ...columns.map((column) => column.section), ...header.dictionaries];
  for (const [at, payload] of payloads.entries()) {
    const section = sections[at]!;
    if (section[0] !== written) throw new Error('index file layout did not settle');
    body.push(payload);
    written += payload.byteLength;
    if (align(written) > written) body.push(Buffer.alloc(align(written) - written));
    written = align(written);
  }
  const prefix = Buffer.alloc(PREFIX);
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(INDEX_FILE_VERSION, 8);
  prefix.writeUInt32LE(headerBytes.length, 12);
  prefix.writeUInt32LE(await checksum(body), 16);
  return [prefix, ...body];
}

/**
 * The index a file holds, only if it is whole (checksum), of this format, of this vintage and made
 * from exactly the columns the database now stores (fingerprint); else UnusableIndexFile.
 */
export async function readIndexFile(path: string, vintageId: string, fingerprint: string): Promise<VintageIndex> {
  const bytes = await readWhole(path);
  if (bytes.length < PREFIX || !bytes.subarray(0, 8).equals(MAGIC)) throw new UnusableIndexFile('not an index file');
  const version = bytes.readUInt32LE(8);
  if (version !== INDEX_FILE_VERSION) throw new UnusableIndexFile(`format version ${version}, not ${INDEX_FILE_VERSION}`);
  const headerLength = bytes.readUInt32LE(12);
  if (PREFIX + headerLength > bytes.length) throw new UnusableIndexFile('truncated header');
  if ((await checksum([bytes.subarray(PREFIX)])) !== bytes.readUInt32LE(16)) throw new UnusableIndexFile('checksum mismatch');
  let header: Header;
  try {
    header = JSON.parse(bytes.toString('utf8', PREFIX, PREFIX + headerLength)) as Header;
  } catch {
    throw new UnusableIndexFile('unreadable header');
  }
  if (header.vintageId !== vintageId) throw new UnusableIndexFile(`made for vintage ${header.vintageId}`);
  if (header.fingerprint !== fingerprint) throw new UnusableIndexFile('made from other stored columns');
  const size = header.size;
  // Past the checksum, a mismatch here is a writer's bug, not damage; still never trusted.
  const view = ([offset, length]: Section, width: number) => {
    if (offset % 8 !== 0 || offset + length > bytes.length || (width > 0 && length !== size * width)) throw new UnusableIndexFile('section out of place');
    return { offset, length };
  };
  const json = (section: Section) => {
    const { offset, length } = view(section, 0);
    return JSON.parse(bytes.toString('utf8', offset, offset + length)) as unknown[];
  };
  const strings = (blob: Section, endsSection: Section | undefined, count: number) => {
    const text = view(blob, 0);
    if (!endsSection || endsSection[1] !== count * 4) throw new UnusableIndexFile('string offsets out of place');
    const ends = new Uint32Array(bytes.buffer, bytes.byteOffset + view(endsSection, 0).offset, count);
    if (count > 0 && ends[count - 1] !== text.length) throw new UnusableIndexFile('string offsets do not end with the strings');
    return new Utf8Strings(bytes.subarray(text.offset, text.offset + text.length), ends);
  };
  const keys = strings(header.keys, header.keyEnds, size);
  const dictionaryOf = (stored: StoredDictionary | undefined): Dictionary => {
    if (!stored) return [];
    if (stored.type === 'values') return stored.values;
    const [blob, ends] = [header.dictionaries[stored.at], header.dictionaries[stored.at + 1]];
    if (!blob || !ends || ends[1] % 4 !== 0) throw new UnusableIndexFile('dictionary out of place');
    return strings(blob, ends, ends[1] / 4);
  };
  const order = view(header.keyOrder, 4);
  const rowsByKey = new Uint32Array(bytes.buffer, bytes.byteOffset + order.offset, size);
  const columns = new Map<string, Column>();
  for (const { field, kind, section, width, dictionary } of header.columns) {
    if (kind === 'number') {
      const { offset } = view(section, 8);
      columns.set(field, { kind, values: new Float64Array(bytes.buffer, bytes.byteOffset + offset, size) });
    } else if (kind === 'coded') {
      const Slots = width === 1 ? Uint8Array : width === 2 ? Uint16Array : width === 4 ? Uint32Array : undefined;
      if (!Slots) throw new UnusableIndexFile(`column ${field} has slots of width ${width}`);
      const { offset } = view(section, width!);
      columns.set(field, { kind, slots: new Slots(bytes.buffer as ArrayBuffer, bytes.byteOffset + offset, size), dictionary: dictionaryOf(dictionary) });
    } else {
      const values = json(section);
      if (values.length !== size) throw new UnusableIndexFile(`column ${field} has ${values.length} rows, not ${size}`);
      columns.set(field, { kind: 'mixed', values });
    }
  }
  return restoreIndex(vintageId, keys, rowsByKey, columns);
}

/** The whole file in one Buffer of its own, so that its sections can be viewed at 8-byte offsets. */
async function readWhole(path: string): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const bytes = Buffer.allocUnsafeSlow(size);
    let read = 0;
    while (read < size) {
      const { bytesRead } = await file.read(bytes, read, size - read, read);
      if (bytesRead === 0) throw new UnusableIndexFile('file shrank while read');
      read += bytesRead;
    }
    return bytes;
  } finally {
    await file.close();
  }
}

async function checksum(chunks: Uint8Array[]): Promise<number> {
  let value = 0;
  for (const chunk of chunks) {
    for (let start = 0; start < chunk.byteLength; start += CHECKSUM_SLICE) {
      value = crc32(chunk.subarray(start, start + CHECKSUM_SLICE), value);
      if (chunk.byteLength > CHECKSUM_SLICE) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return value;
}
