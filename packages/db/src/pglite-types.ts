// How PGlite turns values into text and back for the types where its own JavaScript is slow.
// PGlite's bytea handling goes byte by byte in JavaScript (`parseInt` over every pair of hex
// digits, `toString(16)` over every byte), and it runs on the thread that answers requests: a
// page of 16 layer chunks (about 5 MB) took 450-600 ms to decode there. Buffer's hex codec is
// native and does the same in a few milliseconds. The values are Buffers, as node-postgres
// answers bytea, so code reads both databases' bytes alike.

const BYTEA_OID = 17;
const INT8_OID = 20;

export const PGLITE_PARSERS = {
  // Counts come back as int8; a count above 2^53 is not something this product meets.
  [INT8_OID]: (value: string) => Number(value),
  // Text format: `\x` then two hex digits per byte.
  [BYTEA_OID]: (value: string): Uint8Array => Buffer.from(value.slice(2), 'hex'),
};

export const PGLITE_SERIALIZERS = {
  [BYTEA_OID]: (value: unknown): string => {
    if (!(value instanceof Uint8Array)) throw new TypeError('a bytea parameter must be a Uint8Array');
    return `\\x${Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex')}`;
  },
};
