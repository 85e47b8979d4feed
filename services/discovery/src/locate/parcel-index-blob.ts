// A vintage's parcel index as bytes, laid out so that reading it back is typed-array views and
// a few JSON arrays, no per-parcel parsing of GeoJSON. Layout (little-endian):
//
//   0  "LSPARCEL"   8  format version (u32)   12  header length (u32)   16  header (JSON, padded
//   with spaces to 8 bytes), then each section on an 8-byte boundary.
//
// The header names the vintage, the parcel count and where each section lies. The typed arrays
// are the point engine's snapshot of the polygons; keys and record fields are JSON arrays.

import type { VectorLayerSnapshot } from '@landscreen/point-engine';
import { RECORD_FIELDS, type ParcelRecordColumns, type StoredParcelIndex } from './stored-parcel-index.js';

export const PARCEL_INDEX_FORMAT = 1;
const MAGIC = Buffer.from('LSPARCEL', 'latin1');
const PREFIX = 16;

const TYPED = ['shapeKinds', 'coordStarts', 'coords', 'pathStarts', 'paths', 'polygonStarts', 'polygons', 'boxes', 'singlePart'] as const;
type TypedName = (typeof TYPED)[number];
const TYPES: Record<TypedName, { new (buffer: ArrayBuffer, offset: number, length: number): Uint8Array | Uint32Array | Float64Array; BYTES_PER_ELEMENT: number }> = {
  shapeKinds: Uint8Array,
  coordStarts: Uint32Array,
  coords: Float64Array,
  pathStarts: Uint32Array,
  paths: Uint32Array,
  polygonStarts: Uint32Array,
  polygons: Uint32Array,
  boxes: Float64Array,
  singlePart: Uint8Array,
};

type Section = [offset: number, length: number];

interface Header {
  vintageId: string;
  size: number;
  sections: Record<string, Section>;
}

/** Why stored bytes were not used: the index is rebuilt from the parcels. */
export class UnusableParcelIndex extends Error {}

const align = (offset: number) => Math.ceil(offset / 8) * 8;
const bytesOf = (array: Uint8Array | Uint32Array | Float64Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);

function typedOf(stored: StoredParcelIndex, name: TypedName): Uint8Array | Uint32Array | Float64Array {
  return name === 'singlePart' ? stored.singlePart : stored.shapes[name];
}

/** The index's bytes, in order (the caller stores them one after another). */
export function encodeParcelIndex(stored: StoredParcelIndex): Uint8Array[] {
  const payloads = new Map<string, Uint8Array>();
  for (const name of TYPED) payloads.set(name, bytesOf(typedOf(stored, name)));
  payloads.set('keys', Buffer.from(JSON.stringify(stored.keys)));
  for (const field of RECORD_FIELDS) payloads.set(field, Buffer.from(JSON.stringify(stored.records[field])));
  const header: Header = { vintageId: stored.vintageId, size: stored.keys.length, sections: {} };
  // Offsets depend on the header's length, which holds them: lay out until it settles.
  let headerBytes = Buffer.alloc(0);
  for (let previous = -1; headerBytes.length !== previous; ) {
    previous = headerBytes.length;
    let offset = align(PREFIX + headerBytes.length);
    for (const [name, payload] of payloads) {
      header.sections[name] = [offset, payload.byteLength];
      offset = align(offset + payload.byteLength);
    }
    const json = Buffer.from(JSON.stringify(header));
    headerBytes = Buffer.concat([json, Buffer.alloc(align(PREFIX + json.length) - PREFIX - json.length, ' ')]);
  }
  const prefix = Buffer.alloc(PREFIX);
  MAGIC.copy(prefix, 0);
  prefix.writeUInt32LE(PARCEL_INDEX_FORMAT, 8);
  prefix.writeUInt32LE(headerBytes.length, 12);
  const chunks: Uint8Array[] = [prefix, headerBytes];
  let written = PREFIX + headerBytes.length;
  for (const [name, payload] of payloads) {
    if (header.sections[name]![0] !== written) throw new Error('parcel index layout did not settle');
    chunks.push(payload);
    written += payload.byteLength;
    if (align(written) > written) chunks.push(Buffer.alloc(align(written) - written));
    written = align(written);
  }
  return chunks;
}

/**
 * The index the bytes hold, only if they are of this format and this vintage and every section
 * lies where it should (else UnusableParcelIndex). `bytes` must start on an 8-byte boundary of
 * its buffer; the typed arrays are views into it.
 */
export function decodeParcelIndex(bytes: Uint8Array, vintageId: string): StoredParcelIndex {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (buffer.length < PREFIX || !buffer.subarray(0, 8).equals(MAGIC)) throw new UnusableParcelIndex('not a stored parcel index');
  const format = buffer.readUInt32LE(8);
  if (format !== PARCEL_INDEX_FORMAT) throw new UnusableParcelIndex(`format ${format}, not ${PARCEL_INDEX_FORMAT}`);
  if (bytes.byteOffset % 8 !== 0) throw new UnusableParcelIndex('bytes not aligned');
  const headerLength = buffer.readUInt32LE(12);
  let header: Header;
  try {
    header = JSON.parse(buffer.toString('utf8', PREFIX, PREFIX + headerLength)) as Header;
  } catch {
    throw new UnusableParcelIndex('unreadable header');
  }
  if (header.vintageId !== vintageId) throw new UnusableParcelIndex(`made for vintage ${header.vintageId}`);
  const section = (name: string): Section => {
    const found = header.sections[name];
    if (!found || found[0] % 8 !== 0 || found[0] + found[1] > buffer.length) throw new UnusableParcelIndex(`section ${name} out of place`);
    return found;
  };
  const typed = (name: TypedName) => {
    const [offset, length] = section(name);
    const Type = TYPES[name];
    if (length % Type.BYTES_PER_ELEMENT !== 0) throw new UnusableParcelIndex(`section ${name} of a partial length`);
    return new Type(bytes.buffer as ArrayBuffer, bytes.byteOffset + offset, length / Type.BYTES_PER_ELEMENT);
  };
  const json = (name: string) => {
    const [offset, length] = section(name);
    const values = JSON.parse(buffer.toString('utf8', offset, offset + length)) as unknown[];
    if (!Array.isArray(values) || values.length !== header.size) throw new UnusableParcelIndex(`section ${name} holds ${values.length} values, not ${header.size}`);
    return values;
  };
  const shapes: VectorLayerSnapshot = {
    kind: 'vector',
    source: 'parcel_vendor' as VectorLayerSnapshot['source'],
    version: vintageId,
    shapeKinds: typed('shapeKinds') as Uint8Array,
    coordStarts: typed('coordStarts') as Uint32Array,
    coords: typed('coords') as Float64Array,
    pathStarts: typed('pathStarts') as Uint32Array,
    paths: typed('paths') as Uint32Array,
    polygonStarts: typed('polygonStarts') as Uint32Array,
    polygons: typed('polygons') as Uint32Array,
    boxes: typed('boxes') as Float64Array,
    columns: [],
  };
  const size = header.size;
  if (shapes.shapeKinds.length !== size || shapes.coordStarts.length !== size + 1 || shapes.boxes.length !== size * 4) throw new UnusableParcelIndex('shape sections disagree with the count');
  const singlePart = typed('singlePart') as Uint8Array;
  if (singlePart.length !== size) throw new UnusableParcelIndex('single-part flags disagree with the count');
  const records = Object.fromEntries(RECORD_FIELDS.map((field) => [field, json(field)])) as unknown as ParcelRecordColumns;
  return { vintageId, shapes, keys: json('keys') as string[], records, singlePart };
}
