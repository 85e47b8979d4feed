import type { BodyDecoder } from '../validation/index.js';
import { decodeRunBody, packRunBody, unpackRunBody, type PackedRunBody } from './run-upload.js';

/**
 * How a route's body is read beyond plain JSON, by name, so that a body worker (which cannot be
 * handed functions) runs the same code: `decode` turns the raw text into what the body schema
 * validates; `pack`/`unpack` carry a large valid body back from the worker in a form that is
 * cheap for the thread answering requests to receive.
 */
export interface BodyCodec {
  decode: BodyDecoder;
  pack?(value: unknown): { packed: unknown; transfer: ArrayBuffer[] };
  unpack?(packed: unknown): unknown;
}

export const BODY_CODECS = {
  /** POST /v1/runs: a JSON body or a CSV, GeoJSON or NDJSON upload. */
  run: { decode: decodeRunBody, pack: packRunBody, unpack: (packed) => unpackRunBody(packed as PackedRunBody) },
} satisfies Record<string, BodyCodec>;

export type BodyCodecName = keyof typeof BODY_CODECS;
