// Canonical JSON and the two identities built on it (D11): spec_hash names a spec, query_hash
// names "this spec on this vintage of this market". Both must be byte-for-byte reproducible on
// any machine and in any service, so the serialisation is spelled out here rather than left to
// whatever key order an object happens to have.

import { createHash } from 'node:crypto';
import type { CanonicalSpec } from './types.js';

/**
 * JSON with object keys sorted (UTF-16 code unit order, as RFC 8785) at every depth and no
 * whitespace. Numbers are written in their shortest round-trip form (JSON.stringify's, which
 * also writes -0 as 0). Otherwise it follows JSON.stringify: undefined properties are dropped,
 * undefined array items and non-finite numbers become null, toJSON is honoured.
 */
export function canonicalJson(value: unknown): string {
  const text = write(value);
  if (text === undefined) throw new TypeError('canonicalJson: value has no JSON form');
  return text;
}

function write(value: unknown): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
      return Number.isFinite(value) ? JSON.stringify(value) : 'null';
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new TypeError('canonicalJson: BigInt has no JSON form');
    case 'object':
      return writeObject(value);
    default:
      // undefined, functions and symbols have no JSON form.
      return undefined;
  }
}

function writeObject(value: object): string | undefined {
  const withToJson = value as { toJSON?: () => unknown };
  if (typeof withToJson.toJSON === 'function') return write(withToJson.toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    const text = write(record[key]);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** spec_hash (D11): SHA-256 hex of the canonical JSON of a canonical spec. */
export function specHash(spec: CanonicalSpec): string {
  return sha256Hex(canonicalJson(spec));
}

/**
 * query_hash (D11): SHA-256 hex of canonical `{"spec", "market_id", "vintage_id"}`. A new vintage
 * gives a new hash, which is how promotion notices that the ranking it was shown is stale.
 */
export function queryHash(spec: CanonicalSpec, marketId: string, vintageId: string): string {
  return sha256Hex(canonicalJson({ spec, market_id: marketId, vintage_id: vintageId }));
}
