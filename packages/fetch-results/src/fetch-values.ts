// D34's per-location values as FetchValues messages, built for speed: a batch is up to 1,000
// locations x 500 fields, so values travel column by column (no message per value, and numbers
// in a plain double array), and messages are written as literals (create() would walk each one
// by reflection). Two sources feed them: the engine's packed answer, and EvaluatePoints' answers
// (the path of parcel_record fields); both go through the same builder.

import type { MessageInitShape } from '@bufbuild/protobuf';
import type { AnswerRowSink, EngineAnswer, NullReason } from '@landscreen/point-engine';
import { catalogv1 } from '@landscreen/proto';

type FieldAnswerInit = NonNullable<MessageInitShape<typeof catalogv1.LocationResultSchema>['answers']>[number];

const Kind = catalogv1.FetchValueKind;
const VALUES = catalogv1.FetchValuesSchema.typeName;

/** Appends field values in field order: the kind of each, and the value to its kind's list. */
class ValuesBuilder implements AnswerRowSink {
  readonly kinds: catalogv1.FetchValueKind[] = [];
  readonly numbers: number[] = [];
  readonly strings: string[] = [];
  readonly nullReasons: string[] = [];

  number(_field: number, value: number): void {
    this.kinds.push(Kind.NUMBER);
    this.numbers.push(value);
  }

  string(_field: number, value: string): void {
    this.kinds.push(Kind.STRING);
    this.strings.push(value);
  }

  bool(_field: number, value: boolean): void {
    this.kinds.push(value ? Kind.TRUE : Kind.FALSE);
  }

  null(_field: number, reason: NullReason | string | null): void {
    this.kinds.push(Kind.NULL);
    this.nullReasons.push(reason ?? '');
  }

  message(): catalogv1.FetchValues {
    return { $typeName: VALUES, kinds: this.kinds, numbers: this.numbers, strings: this.strings, nullReasons: this.nullReasons };
  }
}

/** One location's values straight from the engine's packed answer, in the answer's field order. */
export function engineFetchValues(answer: EngineAnswer, location: number): catalogv1.FetchValues {
  const values = new ValuesBuilder();
  answer.readRow(location, values);
  return values.message();
}

/** One location's EvaluatePoints answers as fetch values, in the order of its fields (a lookup's parcel too). */
export function answerFetchValues(answers: readonly FieldAnswerInit[] | undefined): catalogv1.FetchValues {
  const values = new ValuesBuilder();
  (answers ?? []).forEach((answer, f) => {
    const value = answer.value;
    switch (value?.case) {
      case 'numberValue':
        values.number(f, value.value);
        break;
      case 'intValue':
        values.number(f, Number(value.value));
        break;
      case 'stringValue':
        values.string(f, value.value);
        break;
      case 'boolValue':
        values.bool(f, value.value);
        break;
      default:
        values.null(f, answer.nullReason ?? '');
    }
  });
  return values.message();
}
