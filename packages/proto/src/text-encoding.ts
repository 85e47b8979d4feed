// protobuf-es turns every string field into UTF-8 with the WHATWG TextEncoder, which on Node 20
// costs about a microsecond a call however short the string: encoding the price list (a few dozen
// short strings) took 87 µs, two thirds of it in TextEncoder.encode. Node's own Buffer.from does
// the same conversion in a fraction of that (28 µs for the whole message), so every service and
// the gateway encode with it. Decoding stays with protobuf-es's default, which measured faster
// than Buffer#toString here. The setting is global to the process (protobuf-es keeps it on
// globalThis), made once when @landscreen/proto is first imported — before any message is encoded.
import { configureTextEncoding, getTextEncoding } from '@bufbuild/protobuf/wire';

const defaults = getTextEncoding();

configureTextEncoding({
  encodeUtf8: (text: string) => Buffer.from(text, 'utf8'),
  decodeUtf8: (bytes: Uint8Array, strict?: boolean): string => defaults.decodeUtf8(bytes, strict),
  checkUtf8: (text: string): boolean => defaults.checkUtf8(text),
});
