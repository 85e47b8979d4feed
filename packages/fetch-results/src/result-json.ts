// D34's result object `{"id","lat","lon","values":{field: value},"null_reasons":{field: reason}}`
// as JSON: the one writer of it, for fetch/batch's results array, a lookup's parcel values and
// each line of a run's NDJSON. Written as text (1,000 locations x 50 fields is 50,000 values):
// each field's key once per writer, each distinct string value encoded once.

import { rounderOf } from '@landscreen/field-catalog';
import { catalogv1 } from '@landscreen/proto';

const Kind = catalogv1.FetchValueKind;

/** The reason written for a null whose evaluator gave none. */
export const DEFAULT_NULL_REASON = 'no_coverage';

/**
 * `"values":{…},"null_reasons":{…}` of values that answer `fields` in order: every field is in
 * `values` (null when null), each null's reason in `null_reasons`; numbers rounded per their
 * field's unit (D40). A number JSON cannot write (NaN, Infinity) is null, with no reason.
 */
export class ValuesWriter {
  private readonly keys: string[];
  private readonly rounders: ((value: number) => number)[];
  private readonly strings = new Map<string, string>();

  constructor(fields: readonly string[]) {
    this.keys = fields.map((field) => `${JSON.stringify(field)}:`);
    this.rounders = fields.map(rounderOf);
  }

  write(values: catalogv1.FetchValues | undefined): string {
    if (!values) return '"values":{},"null_reasons":{}';
    const { kinds, numbers, strings, nullReasons } = values;
    // Each kind's values are listed in field order: one cursor per list.
    let number = 0;
    let string = 0;
    let nulls = 0;
    let written = '';
    let reasons = '';
    for (let f = 0; f < kinds.length; f++) {
      const key = this.keys[f];
      let text: string;
      switch (kinds[f]) {
        case Kind.NUMBER: {
          const value = numbers[number++];
          text = Number.isFinite(value) ? String(this.rounders[f](value)) : 'null';
          break;
        }
        case Kind.STRING:
          text = this.string(strings[string++]);
          break;
        case Kind.TRUE:
          text = 'true';
          break;
        case Kind.FALSE:
          text = 'false';
          break;
        default:
          text = 'null';
          reasons += `${reasons === '' ? '' : ','}${key}${this.string(nullReasons[nulls++] || DEFAULT_NULL_REASON)}`;
      }
      written += f === 0 ? key + text : `,${key}${text}`;
    }
    return `"values":{${written}},"null_reasons":{${reasons}}`;
  }

  private string(text: string): string {
    let json = this.strings.get(text);
    if (json === undefined) this.strings.set(text, (json = JSON.stringify(text)));
    return json;
  }
}

/** Writes result objects of one field list, one at a time (a run's NDJSON lines) or as an array. */
export class ResultWriter {
  private readonly values: ValuesWriter;

  constructor(fields: readonly string[]) {
    this.values = new ValuesWriter(fields);
  }

  /** One result object. */
  write(result: catalogv1.FetchResult): string {
    return `{"id":${result.id === undefined ? 'null' : JSON.stringify(result.id)},"lat":${result.lat},"lon":${result.lon},${this.values.write(result.values)}}`;
  }

  /** One result object per line, each line ended (NDJSON). */
  lines(results: readonly catalogv1.FetchResult[]): string {
    let text = '';
    for (const result of results) text += `${this.write(result)}\n`;
    return text;
  }
}

/** The results as one JSON array, in order (fetch/batch's `results`). */
export function fetchResultsJson(fields: readonly string[], results: readonly catalogv1.FetchResult[]): string {
  const writer = new ResultWriter(fields);
  const parts = new Array<string>(results.length);
  for (let n = 0; n < results.length; n++) parts[n] = writer.write(results[n]);
  return `[${parts.join(',')}]`;
}
