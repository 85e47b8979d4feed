import { fromBinary, toBinary } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { compileSpec, type CanonicalSpec, type DiscoveryDraft, type Evaluation } from '@landscreen/buybox-spec';
import { discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import { parcelCandidate } from '../candidates.js';
import type { MarketVintage } from '../market-vintage.js';
import { provenanceOf, type ParcelFacts, type ParcelRow } from '../parcel-rows.js';
import { discoveryResult, mustEvidence } from '../results.js';

// The typed messages must give the REST JSON the service answered before the services answered typed messages character for
// character: each expectation below is JSON.stringify of the object the service built then.

const access: MarketVintage = {
  market: { id: '9b0f0c1e-8a51-4c1e-9f43-2b0c8b7a1a01', slug: 'travis-tx' },
  vintage: { id: '5c3c7a52-3f0e-4d4b-8e53-0a5d1f0f6c11', freeFactFields: ['owner name', 'tags', '__proto__'], derivedFields: ['near'], fieldProvenance: null },
};
const row: ParcelRow = {
  parcel_key: 'p-1',
  apn: '0012-34',
  address: '1 Main St, "Austin" — Zoë',
  lat: 30.25,
  lon: -97.75,
  acres: 51.5,
  developable_acres: null,
  geometry: { type: 'Polygon', coordinates: [[[-97.8, 30.2], [-97.7, 30.2], [-97.7, 30.3], [-97.8, 30.2]]] },
  bbox: [-97.8, 30.2, -97.7, 30.3],
  provenance: { zoning: { source: 'county', as_of: '2026-01-01' } },
};
const facts: Record<string, unknown> = { acres: 51.5, zoning: 'IH', flood: null, 'owner name': 'Zoë', tags: ['a', 1, null, { deep: [true] }], near: { km: -0, big: 1e21 } };
Object.defineProperty(facts, '__proto__', { value: 'a key, not a prototype', enumerable: true });
const split: ParcelFacts = {
  typed: { acres: 51.5, zoning: 'IH', flood: null },
  free_facts: { 'owner name': 'Zoë', tags: facts.tags },
  derived: { near: facts.near },
  facts,
};
const spec: CanonicalSpec = {
  markets: ['travis-tx'],
  must: [
    { field: 'acres', op: 'gte', value: 50, unknown: 'exclude' },
    { field: 'flood', op: 'eq', value: false, unknown: 'review' },
    { field: 'zoning', op: 'in', value: ['IH', 'LI', null], unknown: 'exclude' },
  ],
  preferred: [
    { field: 'near', op: 'exists', value: true, weight: 2.5 },
    { field: 'tags', op: 'contains', value: 'a', weight: -1 },
    { field: 'acres', op: 'between', value: [10, 1e6], weight: 0.125 },
  ],
  verdict_cutoffs: { pursue: 70.5, monitor: 40 },
};
const evaluation: Evaluation = compileSpec(spec).evaluate((field) => facts[field]);
const vintage = { id: access.vintage.id, fieldProvenance: null };

/** The DiscoveryResult as the service built it before the typed messages. */
function resultBefore(evaluated: Evaluation) {
  return {
    parcel_key: row.parcel_key,
    apn: row.apn,
    address: row.address,
    lat: row.lat,
    lon: row.lon,
    acres: row.acres,
    developable_acres: row.developable_acres,
    geometry: row.geometry,
    bbox: row.bbox,
    facts: split.facts,
    provenance: provenanceOf(row, split, vintage),
    score: evaluated.score,
    verdict: evaluated.verdict,
    review_required: evaluated.reviewRequired,
    unknowns: evaluated.unknowns,
    score_breakdown: { must: evaluated.must, preferred: evaluated.preferred },
  };
}

/** The message as the network transport hands it over: encoded and decoded. */
const overTheWire = <T extends discoveryv1.DiscoveryResult | discoveryv1.ParcelCandidate | discoveryv1.BuyBoxSpec>(message: T): T => {
  const schema = { 'landscreen.discovery.v1.DiscoveryResult': discoveryv1.DiscoveryResultSchema, 'landscreen.discovery.v1.ParcelCandidate': discoveryv1.ParcelCandidateSchema, 'landscreen.discovery.v1.BuyBoxSpec': discoveryv1.BuyBoxSpecSchema }[message.$typeName] as never;
  return fromBinary(schema, toBinary(schema, message as never)) as T;
};

describe('the REST JSON of the discovery messages', () => {
  it('writes a DiscoveryResult as the service did, embedded and over the wire', () => {
    const message = discoveryResult(row, split, evaluation, vintage);
    const before = JSON.stringify(resultBefore(evaluation));
    expect(discoveryjson.discoveryResultJson(message, { geometry: true })).toBe(before);
    expect(discoveryjson.discoveryResultJson(overTheWire(message), { geometry: true })).toBe(before);
  });

  it('writes a result with null parts and an ineligible evaluation', () => {
    const bare: ParcelRow = { ...row, apn: null, address: null, lat: null, lon: null, acres: null, geometry: null, bbox: null, provenance: {} };
    const failing = compileSpec(spec).evaluate((field) => (field === 'acres' ? 3 : undefined));
    const message = discoveryResult(bare, split, failing, vintage);
    const before = { ...resultBefore(failing), apn: null, address: null, lat: null, lon: null, acres: null, geometry: null, bbox: null, provenance: provenanceOf(bare, split, vintage) };
    expect(discoveryjson.discoveryResultJson(overTheWire(message), { geometry: true })).toBe(JSON.stringify(before));
    expect(discoveryjson.mustEvidenceJson(mustEvidence(failing.failed))).toBe(JSON.stringify(failing.failed));
  });

  it("writes ResolveParcels' evaluations without geometry, and lean without facts and provenance", () => {
    const { geometry: _geometry, bbox: _bbox, ...withoutGeometry } = resultBefore(evaluation);
    const { facts: _facts, provenance: _provenance, ...lean } = withoutGeometry;
    expect(discoveryjson.discoveryResultJson(discoveryResult(row, split, evaluation, vintage, { geometry: true }), { geometry: false })).toBe(JSON.stringify(withoutGeometry));
    const leanMessage = discoveryResult(row, split, evaluation, vintage, { geometry: true, facts: true });
    expect(discoveryjson.discoveryResultJson(overTheWire(leanMessage), { geometry: false })).toBe(JSON.stringify(lean));
  });

  it('writes a ParcelCandidate as the service did, and lean without its provenance', () => {
    const before = {
      market: access.market.slug,
      vintage_id: access.vintage.id,
      parcel_key: row.parcel_key,
      apn: row.apn,
      address: row.address,
      lat: row.lat,
      lon: row.lon,
      geometry: row.geometry,
      typed: split.typed,
      free_facts: split.free_facts,
      derived: split.derived,
      provenance: provenanceOf(row, split, access.vintage),
    };
    expect(discoveryjson.parcelCandidateJson(overTheWire(parcelCandidate(access, row, split)))).toBe(JSON.stringify(before));
    const { provenance: _provenance, ...lean } = before;
    expect(discoveryjson.parcelCandidateJson(parcelCandidate(access, row, split, true))).toBe(JSON.stringify(lean));
  });

  it('writes a canonical spec and a parsed draft in the canonical order', () => {
    expect(discoveryjson.buyBoxSpecJson(overTheWire(discoveryjson.buyBoxSpecMessage(spec)))).toBe(JSON.stringify(spec));
    const draft: DiscoveryDraft = {
      markets: [],
      must: [{ field: 'acres', op: 'gte', value: 5 }],
      preferred: [{ field: 'zoning', op: 'eq', value: { odd: ['but', 'JSON'] }, weight: 1 }],
      verdict_cutoffs: { pursue: 70, monitor: 40 },
    };
    expect(discoveryjson.buyBoxSpecJson(discoveryjson.buyBoxSpecMessage(draft))).toBe(JSON.stringify(draft));
  });

  it('writes any JSON value through google.protobuf.Value as JSON.stringify does', () => {
    const values: unknown[] = [null, true, false, 0, -0, 1.5e-7, 1e21, -12.25, '', 'é "quoted" \\ \n ☃', [], {}, [1, ['x', null]], { a: { b: [{}] }, 'key with space': 1, undefinedIsLeftOut: undefined }];
    for (const value of values) expect(discoveryjson.valueJson(discoveryjson.valueOf(value))).toBe(JSON.stringify(value));
  });
});
