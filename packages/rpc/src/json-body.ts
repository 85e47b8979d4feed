import { issue, validationError } from './errors.js';

/**
 * REST bodies cross the gateway → service hop as UTF-8 JSON bytes rather than
 * google.protobuf.Struct: the service encodes once with the native JSON encoder and the gateway
 * sends the bytes on untouched. Converting a Struct costs about a millisecond per few kilobytes
 * each way, which would dwarf the hop itself (docs/decisions.md, "JSON bodies across the hop").
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * The deepest nesting of arrays and objects any JSON input may have. Every recursive walk of a
 * value (JSON.stringify, our own normalisers) overflows the stack somewhere past ~3,500 levels,
 * and no real document comes near 64; the gateway bounds request bodies by the same number.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when JSON text nests arrays and objects deeper than `max`. One iterative pass over the
 * characters (brackets inside strings do not count), so it cannot overflow the stack itself, and
 * it stops at the first level too deep. It does not validate: malformed text is JSON.parse's to refuse.
 */
export function jsonNestedDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === BACKSLASH) i++;
      else if (char === QUOTE) inString = false;
    } else if (char === QUOTE) {
      inString = true;
    } else if (char === OPEN_BRACE || char === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (char === CLOSE_BRACE || char === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

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
