/**
 * REST bodies cross the gateway → service hop as UTF-8 JSON bytes rather than
 * google.protobuf.Struct: the service encodes once with the native JSON encoder and the gateway
 * sends the bytes on untouched. Converting a Struct costs about a millisecond per few kilobytes
 * each way, which would dwarf the hop itself (docs/decisions.md, "JSON bodies across the hop").
 */
const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function jsonBytes(value: unknown): Uint8Array {
  return encoder.encode(JSON.stringify(value));
}

export function parseJsonBytes<T = unknown>(bytes: Uint8Array): T {
  return JSON.parse(decoder.decode(bytes)) as T;
}
