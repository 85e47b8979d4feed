// Faster decoders for the two compressions public DEMs use, registered with geotiff.js in place
// of its own (which stay for everything else; its predictors still run after these). Measured
// reading one 3,612 x 3,612 float32 COG tile with the floating-point predictor, two runs each,
// alternating, on the same machine (docs/decisions.md, "Rasters as 3DEP ships them"): DEFLATE
// 8.4 / 11.2 s with geotiff.js's pako, 7.0 / 5.7 s with Node's zlib; LZW 35.7 / 43.5 s with
// geotiff.js's JavaScript decoder (it grows a plain array a byte at a time), 10.0 / 8.8 s with
// weezl compiled to WebAssembly (@developmentseed/lzw-tiff-decoder, MIT, 15 KB).

import { inflateSync } from 'node:zlib';
import { decompress as lzwDecompress } from '@developmentseed/lzw-tiff-decoder';
import { addDecoder, BaseDecoder } from 'geotiff';

const LZW = 5;
const DEFLATE = [8, 32946];

interface DecoderParameters {
  tileWidth: number;
  tileHeight: number;
  bitsPerSample: number | ArrayLike<number>;
}

/** A decoded block as the ArrayBuffer geotiff.js expects (exactly its bytes). */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer);
}

class ZlibDeflateDecoder extends BaseDecoder {
  override decodeBlock(buffer: ArrayBuffer): ArrayBuffer {
    return ownBuffer(inflateSync(new Uint8Array(buffer)));
  }
}

class WasmLzwDecoder extends BaseDecoder {
  override decodeBlock(buffer: ArrayBuffer): ArrayBuffer {
    const { tileWidth, tileHeight, bitsPerSample } = (this as unknown as { parameters: DecoderParameters }).parameters;
    const bits = typeof bitsPerSample === 'number' ? bitsPerSample : Array.from(bitsPerSample).reduce((sum, value) => sum + value, 0);
    return ownBuffer(lzwDecompress(new Uint8Array(buffer), Math.ceil((tileWidth * tileHeight * bits) / 8)));
  }
}

let registered = false;

/** Idempotent: openGrid calls it before reading. */
export function registerDecoders(): void {
  if (registered) return;
  registered = true;
  addDecoder(DEFLATE, async () => ZlibDeflateDecoder as unknown as typeof BaseDecoder);
  addDecoder(LZW, async () => WasmLzwDecoder as unknown as typeof BaseDecoder);
}
