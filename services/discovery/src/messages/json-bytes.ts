/**
 * An open object (facts, provenance, a GeoJSON geometry) as the UTF-8 JSON bytes of its `*_json`
 * field; null and undefined as no bytes (the message's "null or left out").
 */
export function openJson(value: unknown): Uint8Array {
  return value === null || value === undefined ? EMPTY : Buffer.from(JSON.stringify(value), 'utf8');
}

const EMPTY = new Uint8Array(0);
