import { create } from '@bufbuild/protobuf';
import { describe, expect, it } from 'vitest';
import { discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import { buyBoxJson, buyBoxListJson, parsedBuyBoxJson } from './buy-box.js';
import { discoveryPageJson } from './discovery-page.js';
import { foundLeadsJson } from './found-leads.js';
import { parcelResolveJson } from './parcel-resolve.js';

// Each mapping must write the JSON the service answered before the services answered typed messages, character for
// character: the expectations are JSON.stringify of the objects it built then.

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const json = (value: unknown) => new Uint8Array(Buffer.from(JSON.stringify(value)));
const { valueOf } = discoveryjson;

const spec = {
  markets: ['travis-tx'],
  must: [{ field: 'acres', op: 'gte', value: 50, unknown: 'exclude' }],
  preferred: [{ field: 'zoning', op: 'in', value: ['IH', 'LI'], weight: 2 }],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
};
const specMessage = create(discoveryv1.BuyBoxSpecSchema, {
  markets: spec.markets,
  must: spec.must.map((rule) => ({ ...rule, value: valueOf(rule.value) })),
  preferred: spec.preferred.map((rule) => ({ ...rule, value: valueOf(rule.value) })),
  verdictCutoffs: spec.verdict_cutoffs,
});
const geometry = { type: 'Point', coordinates: [-97.7, 30.2] };
const facts = { acres: 51, zoning: 'IH' };
const provenance = { acres: { source: 'import', vintage_id: 'v-1' } };

describe('gateway views of discovery answers', () => {
  it('writes a query page', () => {
    const result = {
      parcel_key: 'p-1', apn: null, address: '1 Main', lat: 30.2, lon: -97.7, acres: 51, developable_acres: null, geometry, bbox: [-97.7, 30.2, -97.7, 30.2],
      facts, provenance, score: 87.5, verdict: 'PURSUE', review_required: false, unknowns: ['flood'],
      score_breakdown: { must: [{ field: 'acres', value: 51, status: 'pass' }], preferred: [{ field: 'zoning', value: 'IH', weight: 2, contribution: 2 }] },
    };
    const page = { market: 'travis-tx', market_id: 'm-1', vintage_id: 'v-1', query_hash: 'q'.repeat(64), applied_spec: spec, denominator: 20, preference_weight_total: 2, eligible_total: 1, results: [result, { ...result, parcel_key: 'p-2', geometry: null, bbox: null }], next_cursor: null };
    const message = (key: string, withGeometry: boolean) =>
      create(discoveryv1.DiscoveryResultSchema, {
        parcelKey: key, address: '1 Main', lat: 30.2, lon: -97.7, acres: 51,
        geometryJson: withGeometry ? json(geometry) : undefined, bbox: withGeometry ? result.bbox : [],
        factsJson: json(facts), provenanceJson: json(provenance), score: 87.5, verdict: 'PURSUE', unknowns: ['flood'],
        scoreBreakdown: { must: [{ field: 'acres', value: valueOf(51), status: 'pass' }], preferred: [{ field: 'zoning', value: valueOf('IH'), weight: 2, contribution: 2 }] },
      });
    const answer = create(discoveryv1.QueryResponseSchema, {
      market: 'travis-tx', marketId: 'm-1', vintageId: 'v-1', queryHash: 'q'.repeat(64), appliedSpec: specMessage, denominator: 20, preferenceWeightTotal: 2, eligibleTotal: 1,
      results: [message('p-1', true), message('p-2', false)],
    });
    expect(text(discoveryPageJson(answer))).toBe(JSON.stringify(page));
    expect(text(discoveryPageJson(create(discoveryv1.QueryResponseSchema, { ...answer, results: [], nextCursor: 'c' })))).toBe(JSON.stringify({ ...page, results: [], next_cursor: 'c' }));
  });

  it('writes a resolve answer', () => {
    const candidate = { market: 'travis-tx', vintage_id: 'v-1', parcel_key: 'p-1', apn: '12', address: null, lat: null, lon: null, geometry: null, typed: facts, free_facts: {}, derived: { d: 1 }, provenance };
    const answer = create(discoveryv1.ResolveResponseSchema, {
      status: 'resolved', market: 'travis-tx', marketId: 'm-1', vintageId: 'v-1',
      candidates: [{ market: 'travis-tx', vintageId: 'v-1', parcelKey: 'p-1', apn: '12', typedJson: json(facts), freeFactsJson: json({}), derivedJson: json({ d: 1 }), provenanceJson: json(provenance) }],
    });
    expect(text(parcelResolveJson(answer))).toBe(JSON.stringify({ status: 'resolved', market: 'travis-tx', market_id: 'm-1', vintage_id: 'v-1', candidates: [candidate] }));
    expect(text(parcelResolveJson(create(discoveryv1.ResolveResponseSchema, { status: 'not_found', market: 'x', marketId: 'm', vintageId: 'v' })))).toBe(
      JSON.stringify({ status: 'not_found', market: 'x', market_id: 'm', vintage_id: 'v', candidates: [] }),
    );
  });

  it('writes buy-box records, times as JavaScript printed them', () => {
    const created = new Date('2026-11-23T10:00:00.123Z');
    const record = { id: 'b-1', name: 'DC', description: null, spec, spec_hash: 'h'.repeat(64), created_at: created.toISOString(), updated_at: '2026-11-23T10:00:01.000Z' };
    const time = (iso: string) => {
      const ms = Date.parse(iso);
      return { seconds: BigInt(Math.floor(ms / 1000)), nanos: (ms % 1000) * 1_000_000 };
    };
    const box = create(discoveryv1.BuyBoxSchema, { id: 'b-1', name: 'DC', spec: specMessage, specHash: 'h'.repeat(64), createdAt: time(record.created_at), updatedAt: time(record.updated_at) });
    expect(buyBoxJson(box)).toBe(JSON.stringify(record));
    expect(buyBoxListJson([box, { ...box, description: 'd' }])).toBe(JSON.stringify([record, { ...record, description: 'd' }]));
    expect(buyBoxListJson([])).toBe('[]');
    const parsed = create(discoveryv1.ParseBuyBoxResponseSchema, { draft: create(discoveryv1.BuyBoxSpecSchema, { ...specMessage, must: [create(discoveryv1.MustRuleSchema, { field: 'acres', op: 'gte', value: valueOf(5) })] }), warnings: ['line 2: no market'] });
    expect(parsedBuyBoxJson(parsed)).toBe(JSON.stringify({ draft: { ...spec, must: [{ field: 'acres', op: 'gte', value: 5 }] }, warnings: ['line 2: no market'] }));
  });

  it('writes found leads, with rows unless count_only', () => {
    const answer = create(discoveryv1.FindLeadsResponseSchema, {
      count: 2, byVerdict: { pursue: 1, monitor: 0, hold: 1 },
      rows: [{ parcelKey: 'p-1', apn: '1', lat: 1.5, lon: 2.5, score: 100, verdict: 'PURSUE', reviewRequired: true, unknowns: ['x'] }],
    });
    const summary = { count: 2, by_verdict: { PURSUE: 1, MONITOR: 0, HOLD: 1 } };
    expect(foundLeadsJson(answer, true)).toBe(JSON.stringify(summary));
    const row = { parcel_key: 'p-1', apn: '1', address: null, lat: 1.5, lon: 2.5, acres: null, score: 100, verdict: 'PURSUE', review_required: true, unknowns: ['x'] };
    expect(foundLeadsJson(answer, false)).toBe(JSON.stringify({ ...summary, rows: [row] }));
  });
});
