// D34's per-location values as FetchResult / FetchValues messages, built for speed: a batch is up
// to 1,000 locations x 500 fields, so values travel column by column (no message per value, and
// numbers in a plain double array), and messages are written as literals (create() would walk
// each one by reflection).

import type { MessageInitShape } from '@bufbuild/protobuf';
import type { EngineAnswer } from '@landscreen/point-engine';
import { catalogv1 } from '@landscreen/proto';
import type { ResultLocation } from './results-json.js';

type LocationResultInit = MessageInitShape<typeof catalogv1.LocationResultSchema>;
type FieldAnswerInit = NonNullable<LocationResultInit['answers']>[number];

const Kind = catalogv1.FetchValueKind;
const VALUES = catalogv1.FetchValuesSchema.typeName;
const RESULT = catalogv1.FetchResultSchema.typeName;

/** Appends field values in field order: the kind of each, and the value to its kind's list. */
class ValuesBuilder {
  readonly kinds: catalogv1.FetchValueKind[] = [];
  readonly numbers: number[] = [];
  readonly strings: string[] = [];
  readonly nullReasons: string[] = [];

  number(value: number): void {
    this.kinds.push(Kind.NUMBER);
    this.numbers.push(value);
  }

  string(value: string): void {
    this.kinds.push(Kind.STRING);
    this.strings.push(value);
  }

  bool(value: boolean): void {
    this.kinds.push(value ? Kind.TRUE : Kind.FALSE);
  }

  null(reason: string): void {
    this.kinds.push(Kind.NULL);
    this.nullReasons.push(reason);
  }

  message(): catalogv1.FetchValues {
    return { $typeName: VALUES, kinds: this.kinds, numbers: this.numbers, strings: this.strings, nullReasons: this.nullReasons };
  }
}

function result(location: ResultLocation, values: catalogv1.FetchValues): catalogv1.FetchResult {
  return { $typeName: RESULT, id: location.id ?? undefined, lat: location.lat, lon: location.lon, values };
}

/** The results straight from the engine's packed answer (no per-answer EvaluatePoints messages). */
export function engineFetchResults(locations: readonly ResultLocation[], answer: EngineAnswer): catalogv1.FetchResult[] {
  const width = answer.fields.length;
  const results = new Array<catalogv1.FetchResult>(answer.size);
  for (let n = 0; n < answer.size; n++) {
    const values = new ValuesBuilder();
    for (let f = 0; f < width; f++) {
      const value = answer.value(n, f);
      if (value === null) values.null(answer.reason(n, f) ?? '');
      else if (typeof value === 'number') values.number(value);
      else if (typeof value === 'string') values.string(value);
      else values.bool(value);
    }
    results[n] = result(locations[n], values.message());
  }
  return results;
}

/** The results from EvaluatePoints' answers (the path of parcel_record fields), one per location. */
export function answerFetchResults(locations: readonly ResultLocation[], answers: readonly LocationResultInit[]): catalogv1.FetchResult[] {
  return answers.map((located, n) => result(locations[n], answerFetchValues(located.answers)));
}

/** One location's answers as fetch values, in the order of its fields (a lookup's parcel too). */
export function answerFetchValues(answers: readonly FieldAnswerInit[] | undefined): catalogv1.FetchValues {
  const values = new ValuesBuilder();
  for (const answer of answers ?? []) {
    const value = answer.value;
    switch (value?.case) {
      case 'numberValue':
        values.number(value.value);
        break;
      case 'intValue':
        values.number(Number(value.value));
        break;
      case 'stringValue':
        values.string(value.value);
        break;
      case 'boolValue':
        values.bool(value.value);
        break;
      default:
        values.null(answer.nullReason ?? '');
    }
  }
  return values.message();
}
