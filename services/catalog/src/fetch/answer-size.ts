import { Code } from '@connectrpc/connect';
import { catalogv1 } from '@landscreen/proto';
import { serviceError } from '@landscreen/rpc';
import { refusedBillingHeaders } from '../billing/errors.js';

const MiB = 1024 * 1024;
const Kind = catalogv1.FetchValueKind;

/**
 * The largest answer POST /v1/fetch/batch gives, in bytes of its JSON. 1,000 locations of 500
 * fields of numbers come to about 12 MB; what goes past this is long text values (layer
 * attributes), and an answer of hundreds of megabytes could not even be written as one string
 * (V8's limit is about 512 M characters) — it once failed after its charge. Larger answers are
 * refused before any charge, pointing at POST /v1/runs, whose results are streamed.
 */
export const MAX_FETCH_ANSWER_BYTES = 32 * MiB;

/** A number's JSON at its longest (`-1.2345678901234567e-123`). */
const NUMBER_BYTES = 24;
/** `{"id":,"lat":,"lon":,"values":{},"null_reasons":{}}` and its comma in the results array. */
const RESULT_FRAME_BYTES = 52;
/** `{"results":[],"credits":{"charged":,"per_location":,"balance":}}` with three numbers. */
const ANSWER_FRAME_BYTES = 60 + 3 * NUMBER_BYTES;

/**
 * An upper bound of the UTF-8 bytes of the JSON the gateway writes for these results
 * (gateway/src/views/fetch-result.ts): exact for strings (each distinct one measured once),
 * the longest a number can be for numbers. Cheap next to the evaluation that produced them.
 */
export function fetchAnswerBytes(fields: readonly string[], results: readonly catalogv1.FetchResult[]): number {
  const measured = new Map<string, number>();
  const json = (text: string) => {
    let bytes = measured.get(text);
    if (bytes === undefined) measured.set(text, (bytes = Buffer.byteLength(JSON.stringify(text))));
    return bytes;
  };
  const keys = fields.map((field) => json(field) + 2); // "field": and a comma
  let total = ANSWER_FRAME_BYTES;
  for (const result of results) {
    total += RESULT_FRAME_BYTES + 2 * NUMBER_BYTES + (result.id === undefined ? 4 : json(result.id));
    const values = result.values;
    if (!values) continue;
    let string = 0;
    let reason = 0;
    for (let f = 0; f < values.kinds.length; f++) {
      const key = keys[f] ?? 0;
      switch (values.kinds[f]) {
        case Kind.NUMBER:
          total += key + NUMBER_BYTES;
          break;
        case Kind.STRING:
          total += key + json(values.strings[string++] ?? '');
          break;
        case Kind.TRUE:
        case Kind.FALSE:
          total += key + 5;
          break;
        default: // null, with its reason
          total += key + 4 + key + json(values.nullReasons[reason++] || 'no_coverage');
      }
    }
  }
  return total;
}

/** 413 (the gateway maps the reason) before any charge: the answer would be larger than a batch may answer. */
export const answerTooLarge = (bytes: number, creditsRemaining: number, rate: { limit: number; remaining: number }) =>
  serviceError(
    Code.ResourceExhausted,
    'answer_too_large',
    `This answer would be about ${Math.ceil(bytes / MiB)} MiB, over the ${MAX_FETCH_ANSWER_BYTES / MiB} MiB a batch may answer; nothing was charged. ` +
      'Ask for fewer locations or fields, or submit the same body to POST /v1/runs, whose results are streamed.',
    { answer_bytes: bytes, limit_bytes: MAX_FETCH_ANSWER_BYTES, runs: '/v1/runs', billing_headers: refusedBillingHeaders(creditsRemaining, rate) },
  );
