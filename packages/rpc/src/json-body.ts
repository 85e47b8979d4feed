import { jsonNestedDeeperThan, MAX_JSON_DEPTH } from '@landscreen/validation';
import { issue, validationError } from './errors.js';

/**
 * REST bodies cross the gateway → service hop as UTF-8 JSON bytes rather than
 * google.protobuf.Struct: the service encodes once with the native JSON encoder and the gateway
 * sends the bytes on untouched. Converting a Struct costs about a millisecond per few kilobytes
 * each way, which would dwarf the hop itself (docs/decisions.md, "JSON bodies across the hop").
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

// The nesting bound lives with the D1 vocabulary, which the gateway's body workers load without
// the rest of this package.
export { jsonNestedDeeperThan, MAX_JSON_DEPTH };

export function jsonBytes(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

/** Parses JSON a trusted peer encoded (a service's answer): no bound, no checks. */
export function parseJsonBytes<T = unknown>(bytes: Uint8Array): T {
  return JSON.parse(decoder.decode(bytes)) as T;
}

/**
 * Parses JSON that came from a client, at `loc` of the request. Internal callers reach services
 * without the gateway, so the service bounds nesting itself: deeper than MAX_JSON_DEPTH is a D1
 * 422 (InvalidArgument), before any recursive walk could overflow the stack.
 */
export function parseJsonInput<T = unknown>(bytes: Uint8Array, loc: (string | number)[]): T {
  const text = decoder.decode(bytes);
  if (jsonNestedDeeperThan(text)) {
    throw validationError([issue.jsonTooDeep(loc, MAX_JSON_DEPTH)]);
  }
  return JSON.parse(text) as T;
}
