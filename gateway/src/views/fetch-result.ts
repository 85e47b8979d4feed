import { rounderOf } from '@landscreen/field-catalog';
import { catalogv1 } from '@landscreen/proto';

const Kind = catalogv1.FetchValueKind;

/**
 * D34's fetch results: `[{"id","lat","lon","values":{field: value},"null_reasons":{field: reason}}]`
 * in the order of the locations; every field answered is in `values` (null when null), each
 * null's reason in `null_reasons`. Written as text (1,000 locations x 50 fields is 50,000 values):
 * each field's key once per batch, each distinct string value encoded once.
 */
export function fetchResultsJson(fields: readonly string[], results: readonly catalogv1.FetchResult[]): string {
  const writer = new ValuesWriter(fields);
  const parts = new Array<string>(results.length);
  for (let n = 0; n < results.length; n++) {
    const result = results[n];
    parts[n] = `{"id":${result.id === undefined ? 'null' : JSON.stringify(result.id)},"lat":${result.lat},"lon":${result.lon},${writer.write(result.values)}}`;
  }
  return `[${parts.join(',')}]`;
}

/** A batch's body: {"results": [...], "credits": {"charged","per_location","balance"}}. */
export function fetchBatchJson(answer: catalogv1.FetchBatchResponse): string {
  const credits = answer.credits;
  return (
    `{"results":${fetchResultsJson(answer.fields, answer.results)},` +
    `"credits":{"charged":${credits?.charged ?? 0n},"per_location":${credits?.perLocation ?? 0n},"balance":${credits?.balance ?? 0n}}}`
  );
}

/**
 * `"values":{…},"null_reasons":{…}` of values that answer `fields` in order (a lookup's parcel
 * too); numbers rounded per their field's unit (D40).
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
          // A number JSON cannot write (NaN, Infinity) is null, with no reason.
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
          reasons += `${reasons === '' ? '' : ','}${key}${this.string(nullReasons[nulls++] || 'no_coverage')}`;
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
