import type { MessageInitShape } from '@bufbuild/protobuf';
import { roundFact, rounderOf } from '@landscreen/field-catalog';
import type { EngineAnswer, FieldValue } from '@landscreen/point-engine';
import type { catalogv1 } from '@landscreen/proto';

type LocationResultInit = MessageInitShape<typeof catalogv1.LocationResultSchema>;

export interface ResultLocation {
  lat: number;
  lon: number;
  /** The caller's id; null when it gave none. */
  id: string | null;
}

/**
 * D34's result objects `{"id","lat","lon","values":{field: value},"null_reasons":{field: reason}}`
 * as one JSON array, in the order of `locations`: every asked field is in `values` (null when
 * null), and each null's reason is in `null_reasons`; numbers rounded per their field's unit
 * (D40). Written as text directly (a thousand locations x fifty fields is fifty thousand values;
 * no intermediate objects).
 */
export function resultsJson(locations: readonly ResultLocation[], results: readonly LocationResultInit[]): string {
  // Every location answers the same fields in the same order: their JSON keys are written once.
  const keys = new Map<string, string>();
  const keyOf = (field: string) => {
    let key = keys.get(field);
    if (key === undefined) keys.set(field, (key = `${JSON.stringify(field)}:`));
    return key;
  };
  const parts = new Array<string>(results.length);
  for (let n = 0; n < results.length; n++) {
    const location = locations[n];
    let values = '';
    let reasons = '';
    for (const answer of results[n].answers ?? []) {
      const key = keyOf(answer.field ?? '');
      const value = answer.value?.case === undefined ? null : roundFact(answer.field ?? '', answer.value.value);
      values += values === '' ? key + encode(value) : `,${key}${encode(value)}`;
      if (value === null) reasons += `${reasons === '' ? '' : ','}${key}${JSON.stringify(answer.nullReason || 'no_coverage')}`;
    }
    parts[n] = `{"id":${location.id === null ? 'null' : JSON.stringify(location.id)},"lat":${location.lat},"lon":${location.lon},"values":{${values}},"null_reasons":{${reasons}}}`;
  }
  return `[${parts.join(',')}]`;
}

function encode(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'bigint') return value.toString();
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : 'null';
  return JSON.stringify(value);
}

/**
 * The same result objects written straight from the engine's answer, one by one (a run stores
 * them as NDJSON lines; no provenance, which a run does not return), rounded alike; repeated
 * strings are encoded once per chunk.
 */
export function engineResultObjects(locations: readonly ResultLocation[], answer: EngineAnswer): string[] {
  const width = answer.fields.length;
  const keys = answer.fields.map((field) => `${JSON.stringify(field)}:`);
  const rounders = answer.fields.map(rounderOf);
  const encoded = new Map<string, string>();
  const text = (value: FieldValue, f: number): string => {
    if (value === null) return 'null';
    if (typeof value === 'number') return Number.isFinite(value) ? String(rounders[f]!(value)) : 'null';
    if (typeof value === 'boolean') return value ? 'true' : 'false';
    let json = encoded.get(value);
    if (json === undefined) encoded.set(value, (json = JSON.stringify(value)));
    return json;
  };
  const parts = new Array<string>(answer.size);
  for (let n = 0; n < answer.size; n++) {
    let values = '';
    let nulls = '';
    for (let f = 0; f < width; f++) {
      const value = answer.value(n, f);
      values += f === 0 ? keys[f] + text(value, f) : `,${keys[f]}${text(value, f)}`;
      if (value === null) nulls += `${nulls === '' ? '' : ','}${keys[f]}"${answer.reason(n, f) ?? 'no_coverage'}"`;
    }
    const location = locations[n];
    parts[n] = `{"id":${location.id === null ? 'null' : JSON.stringify(location.id)},"lat":${location.lat},"lon":${location.lon},"values":{${values}},"null_reasons":{${nulls}}}`;
  }
  return parts;
}
