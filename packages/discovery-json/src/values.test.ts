import { create } from '@bufbuild/protobuf';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { discoveryv1 } from '@landscreen/proto';
import { buyBoxSpecJson, buyBoxSpecMessage } from './buy-box-spec.js';
import { discoveryResultJson, mustEvidenceJson, preferredEvidenceJson } from './discovery-result.js';
import { parcelCandidateJson } from './parcel-candidate.js';
import { valueJson, valueOf } from './value.js';
import { buyBoxSpecValue, discoveryResultValue, jsonValue, mustEvidenceValues, parcelCandidateValue, preferredEvidenceValues } from './values.js';

// Each value builder must give what JSON.parse reads from its text writer's output, key for key
// (equal values and the same key order both), for any JSON a rule, a fact or a parcel carries.

const key = fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'a"b', 'Zoë'));
const number = fc.oneof(fc.double(), fc.constantFrom(-0, 0, 1e21, -1e-7));
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.constant(null), fc.boolean(), number, fc.string(), fc.array(tie('value'), { maxLength: 4 }), tie('object')),
  object: fc.dictionary(key, tie('value'), { maxKeys: 4 }),
})).value;
const bytesOf = (value: unknown) => Buffer.from(JSON.stringify(value) ?? '');

/**
 * The value equals the parsed text (toEqual tells -0 from 0; toStrictEqual would read a
 * "constructor" key as the object's class) and writes the same text (the key order).
 */
function expectSame(value: unknown, text: string) {
  const parsed = JSON.parse(text);
  expect(value).toEqual(parsed);
  expect(JSON.stringify(value)).toBe(JSON.stringify(parsed));
}

describe('the value builders equal the text writers parsed', () => {
  it('a google.protobuf.Value', () => {
    fc.assert(fc.property(json, (value) => expectSame(jsonValue(valueOf(value)), valueJson(valueOf(value)))));
  });

  it('a buy-box spec, graded and ungraded rules, with and without unknown policies', () => {
    const rule = fc.record({ field: fc.string(), op: fc.constantFrom('gte', 'in', 'eq'), value: json }, { requiredKeys: ['field', 'op', 'value'] });
    const spec = fc.record({
      markets: fc.array(fc.string(), { maxLength: 2 }),
      must: fc.array(fc.tuple(rule, fc.option(fc.constantFrom('exclude', 'review'), { nil: undefined })).map(([r, unknown]) => ({ ...r, ...(unknown && { unknown }) })), { maxLength: 3 }),
      preferred: fc.array(fc.tuple(rule, number, fc.option(number, { nil: undefined })).map(([r, weight, zeroAt]) => ({ ...r, weight, ...(zeroAt !== undefined && { grade: { zero_at: zeroAt } }) })), { maxLength: 3 }),
      verdict_cutoffs: fc.record({ pursue: number, monitor: number }),
    });
    fc.assert(fc.property(spec, (draft) => {
      const message = buyBoxSpecMessage(draft);
      expectSame(buyBoxSpecValue(message), buyBoxSpecJson(message));
    }));
    expect(buyBoxSpecValue(undefined)).toBeNull();
  });

  it('must and preferred evidence', () => {
    const item = fc.record({ field: fc.string(), value: json, status: fc.constantFrom('pass', 'fail', 'unknown'), weight: number, contribution: number });
    fc.assert(fc.property(fc.array(item, { maxLength: 4 }), (items) => {
      const must = items.map((i) => create(discoveryv1.MustEvidenceSchema, { field: i.field, value: valueOf(i.value), status: i.status }));
      const preferred = items.map((i) => create(discoveryv1.PreferredEvidenceSchema, { field: i.field, value: valueOf(i.value), weight: i.weight, contribution: i.contribution }));
      expectSame(mustEvidenceValues(must), mustEvidenceJson(must));
      expectSame(preferredEvidenceValues(preferred), preferredEvidenceJson(preferred));
    }));
  });

  it('a parcel candidate, with and without its provenance and open objects', () => {
    const open = fc.option(fc.dictionary(key, json, { maxKeys: 3 }), { nil: undefined });
    const parcel = fc.record({
      apn: fc.option(fc.string(), { nil: undefined }),
      lat: fc.option(number, { nil: undefined }),
      geometry: fc.option(fc.constant({ type: 'Point', coordinates: [-97.5, 30.1] }), { nil: undefined }),
      typed: open,
      provenance: open,
    });
    fc.assert(fc.property(parcel, (p) => {
      const message = create(discoveryv1.ParcelCandidateSchema, {
        market: 'tx',
        vintageId: 'v',
        parcelKey: 'k',
        apn: p.apn,
        lat: p.lat,
        geometryJson: p.geometry ? bytesOf(p.geometry) : new Uint8Array(),
        typedJson: p.typed ? bytesOf(p.typed) : new Uint8Array(),
        provenanceJson: p.provenance ? bytesOf(p.provenance) : new Uint8Array(),
      });
      expectSame(parcelCandidateValue(message), parcelCandidateJson(message));
    }));
  });

  it('a discovery result, with and without geometry, facts and provenance', () => {
    const open = fc.option(fc.dictionary(key, json, { maxKeys: 3 }), { nil: undefined });
    const evidence = fc.array(fc.record({ field: fc.string(), value: json, weight: number }), { maxLength: 2 });
    const result = fc.record({
      apn: fc.option(fc.string(), { nil: undefined }),
      lat: fc.option(number, { nil: undefined }),
      acres: fc.option(number, { nil: undefined }),
      geometry: fc.option(fc.constant({ type: 'Point', coordinates: [-97.5, 30.1] }), { nil: undefined }),
      bbox: fc.array(number, { maxLength: 4 }),
      facts: open,
      provenance: open,
      score: number,
      unknowns: fc.array(fc.string(), { maxLength: 2 }),
      evidence,
      withGeometry: fc.boolean(),
    });
    fc.assert(fc.property(result, (r) => {
      const message = create(discoveryv1.DiscoveryResultSchema, {
        parcelKey: 'k',
        apn: r.apn,
        lat: r.lat,
        acres: r.acres,
        geometryJson: r.geometry ? bytesOf(r.geometry) : new Uint8Array(),
        bbox: r.bbox,
        factsJson: r.facts ? bytesOf(r.facts) : new Uint8Array(),
        provenanceJson: r.provenance ? bytesOf(r.provenance) : new Uint8Array(),
        score: r.score,
        verdict: 'HOLD',
        reviewRequired: r.unknowns.length > 0,
        unknowns: r.unknowns,
        scoreBreakdown: {
          must: r.evidence.map((e) => ({ field: e.field, value: valueOf(e.value), status: 'pass' })),
          preferred: r.evidence.map((e) => ({ field: e.field, value: valueOf(e.value), weight: e.weight, contribution: e.weight })),
        },
      });
      const shape = { geometry: r.withGeometry };
      expectSame(discoveryResultValue(message, shape), discoveryResultJson(message, shape));
    }));
  });
});
