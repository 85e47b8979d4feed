// Reading the protobuf messages a report is made of. Their typed fields are read as they are;
// the few open documents they carry (a parcel's facts and geometry, a stored evaluation, a
// provider's contact) are decoded here once, as `unknown` narrowed by the guards below.

import { fromJson, toJson, type JsonValue } from '@bufbuild/protobuf';
import { ValueSchema, type Value } from '@bufbuild/protobuf/wkt';
import { discoveryv1 } from '@landscreen/proto';

export type OpenObject = Readonly<Record<string, unknown>>;

const decoder = new TextDecoder();
const EMPTY: OpenObject = Object.freeze({});

export const isObject = (value: unknown): value is OpenObject => value !== null && typeof value === 'object' && !Array.isArray(value);
export const objectOf = (value: unknown): OpenObject => (isObject(value) ? value : EMPTY);
export const textOf = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
export const numberOf = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** An open document sent as UTF-8 JSON bytes; undefined when none was sent or it is not JSON. */
export function openDocument(bytes: Uint8Array | undefined): unknown {
  if (!bytes || bytes.length === 0) return undefined;
  try {
    return JSON.parse(decoder.decode(bytes)) as unknown;
  } catch {
    return undefined;
  }
}

/** A google.protobuf.Value as the JSON it stands for (null when absent). */
export const jsonOf = (value: Value | undefined): JsonValue => (value ? toJson(ValueSchema, value) : null);

/**
 * The score breakdown a stored evaluation document holds, read into its message (the stored JSON
 * is the message's JSON form); undefined when the document has none.
 */
export function scoreBreakdownOf(evaluation: unknown): discoveryv1.ScoreBreakdown | undefined {
  const breakdown = objectOf(evaluation).score_breakdown;
  if (!isObject(breakdown)) return undefined;
  try {
    return fromJson(discoveryv1.ScoreBreakdownSchema, breakdown as JsonValue, { ignoreUnknownFields: true });
  } catch {
    return undefined;
  }
}
