import { create } from '@bufbuild/protobuf';
import { ListValueSchema, NullValue, StructSchema, ValueSchema, type Value } from '@bufbuild/protobuf/wkt';
import { stringJson } from './json-chunks.js';

// google.protobuf.Value carries what the API spec calls "any JSON" (a rule's value, a fact in
// the evidence). These two hand-written conversions replace protobuf-es's reflective
// toJson/fromJson: a page of 50 results holds hundreds of them.

const NULL: Value = Object.freeze(create(ValueSchema, { kind: { case: 'nullValue', value: NullValue.NULL_VALUE } })) as Value;

/** A JSON value (a parsed fact or rule value) as a google.protobuf.Value; undefined is null. */
export function valueOf(json: unknown): Value {
  switch (typeof json) {
    case 'number':
      return { $typeName: 'google.protobuf.Value', kind: { case: 'numberValue', value: json } };
    case 'string':
      return { $typeName: 'google.protobuf.Value', kind: { case: 'stringValue', value: json } };
    case 'boolean':
      return { $typeName: 'google.protobuf.Value', kind: { case: 'boolValue', value: json } };
    case 'object': {
      if (json === null) return NULL;
      if (Array.isArray(json)) {
        return { $typeName: 'google.protobuf.Value', kind: { case: 'listValue', value: create(ListValueSchema, { values: json.map(valueOf) }) } };
      }
      const fields: Record<string, Value> = {};
      for (const [key, field] of Object.entries(json)) {
        // defineProperty: a "__proto__" key is data, not the object's prototype.
        if (field !== undefined) Object.defineProperty(fields, key, { value: valueOf(field), enumerable: true, writable: true, configurable: true });
      }
      return { $typeName: 'google.protobuf.Value', kind: { case: 'structValue', value: create(StructSchema, { fields }) } };
    }
    default:
      return NULL;
  }
}

/** A google.protobuf.Value as JSON text, as JSON.stringify wrote the value it came from. */
export function valueJson(value: Value | undefined): string {
  if (value === undefined) return 'null';
  const kind = value.kind;
  switch (kind.case) {
    case 'numberValue':
      return JSON.stringify(kind.value);
    case 'stringValue':
      return stringJson(kind.value);
    case 'boolValue':
      return kind.value ? 'true' : 'false';
    case 'listValue':
      return `[${kind.value.values.map(valueJson).join(',')}]`;
    case 'structValue': {
      let text = '';
      for (const [key, field] of Object.entries(kind.value.fields)) text += `${text ? ',' : ''}${stringJson(key)}:${valueJson(field)}`;
      return `{${text}}`;
    }
    default:
      return 'null';
  }
}
