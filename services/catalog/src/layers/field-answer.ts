// The engine's packed answer as typed protobuf messages: each value in the oneof member of its
// kind (integers of `int` fields as int64), each null with its reason, provenance by reference.

import type { MessageInitShape } from '@bufbuild/protobuf';
import { FIELD_BY_NAME } from '@landscreen/field-catalog';
import type { EngineAnswer, FieldValue, Provenance } from '@landscreen/point-engine';
import type { catalogv1 } from '@landscreen/proto';

type Value = catalogv1.FieldAnswer['value'];
type ProvenanceInit = MessageInitShape<typeof catalogv1.ProvenanceSchema>;
type LocationResultInit = MessageInitShape<typeof catalogv1.LocationResultSchema>;

export function locationResults(answer: EngineAnswer, ids: readonly string[]): LocationResultInit[] {
  const integers = answer.fields.map((field) => FIELD_BY_NAME.get(field)?.type === 'int');
  const provenances = new Map<Provenance, ProvenanceInit>();
  const provenanceMessage = (provenance: Provenance) => {
    let message = provenances.get(provenance);
    if (!message) {
      message = {
        layers: provenance.layers.map((layer) => ({ source: layer.source, layerVersionId: layer.layer_version })),
        formulaVersion: provenance.formula_version ?? undefined,
      };
      provenances.set(provenance, message);
    }
    return message;
  };
  const results: LocationResultInit[] = [];
  for (let n = 0; n < answer.size; n++) {
    const answers = answer.fields.map((field, f) => {
      const provenance = answer.provenance(n, f);
      return {
        field,
        value: valueOf(answer.value(n, f), integers[f]),
        nullReason: answer.reason(n, f) ?? '',
        provenance: provenance === null ? undefined : provenanceMessage(provenance),
      };
    });
    results.push({ id: ids[n] ?? '', answers });
  }
  return results;
}

function valueOf(value: FieldValue, integer: boolean): Value {
  if (value === null) return { case: undefined };
  if (typeof value === 'boolean') return { case: 'boolValue', value };
  if (typeof value === 'string') return { case: 'stringValue', value };
  if (integer && Number.isSafeInteger(value)) return { case: 'intValue', value: BigInt(value) };
  return { case: 'numberValue', value };
}
