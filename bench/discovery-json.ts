// The value builders of @landscreen/discovery-json against the round trip they replace
// (JSON.parse of the text writer's output), for what a lead import or a delivery builds per lead:
// the parcel, the failed evidence and the applied spec. Same messages, same process, same run.
//
//   npm run bench:discovery-json

import { create } from '@bufbuild/protobuf';
import { discoveryv1 } from '@landscreen/proto';
import {
  buyBoxSpecJson,
  buyBoxSpecMessage,
  buyBoxSpecValue,
  discoveryResultJson,
  discoveryResultValue,
  mustEvidenceJson,
  mustEvidenceValues,
  parcelCandidateJson,
  parcelCandidateValue,
  valueOf,
} from '@landscreen/discovery-json';

const LEADS = 10_000;
const ROUNDS = 7;
const bytes = (value: unknown) => Buffer.from(JSON.stringify(value));

const spec = buyBoxSpecMessage({
  markets: ['travis-tx'],
  must: [
    { field: 'acres', op: 'gte', value: 50, unknown: 'exclude' },
    { field: 'zoning', op: 'in', value: ['IH', 'LI'], unknown: 'review' },
  ],
  preferred: [{ field: 'nearest_substation_distance_m', op: 'lte', value: 3000, weight: 2, grade: { zero_at: 8000 } }],
  verdict_cutoffs: { pursue: 70, monitor: 40 },
});
const leads = Array.from({ length: LEADS }, (_, i) => {
  const lon = -97.5 + i * 1e-4;
  const ring = [[lon, 30.1], [lon + 0.004, 30.1], [lon + 0.004, 30.104], [lon, 30.104], [lon, 30.1]];
  const typed = { apn: `A-${i}`, acres: 40 + (i % 200), zoning: i % 3 ? 'IH' : null, address: `${i} Lead Road`, owner_name: null };
  const provenance = Object.fromEntries(Object.keys(typed).map((key) => [key, { source: 'import', vintage_id: '5c3c7a52-3f0e-4d4b-8e53-0a5d1f0f6c11' }]));
  const must = [
    create(discoveryv1.MustEvidenceSchema, { field: 'acres', value: valueOf(typed.acres), status: 'pass' }),
    create(discoveryv1.MustEvidenceSchema, { field: 'zoning', value: valueOf(typed.zoning), status: typed.zoning ? 'pass' : 'unknown' }),
  ];
  return {
    parcel: create(discoveryv1.ParcelCandidateSchema, {
      market: 'travis-tx',
      vintageId: '5c3c7a52-3f0e-4d4b-8e53-0a5d1f0f6c11',
      parcelKey: `p-${i}`,
      apn: typed.apn,
      address: typed.address,
      lat: 30.102,
      lon,
      geometryJson: bytes({ type: 'Polygon', coordinates: [ring] }),
      typedJson: bytes(typed),
      derivedJson: bytes({ nearest_substation_distance_m: 500 + i }),
      provenanceJson: bytes(provenance),
    }),
    result: create(discoveryv1.DiscoveryResultSchema, {
      parcelKey: `p-${i}`,
      apn: typed.apn,
      lat: 30.102,
      lon,
      acres: typed.acres,
      geometryJson: bytes({ type: 'Polygon', coordinates: [ring] }),
      bbox: [lon, 30.1, lon + 0.004, 30.104],
      factsJson: bytes(typed),
      provenanceJson: bytes(provenance),
      score: 66.6667,
      verdict: 'MONITOR',
      scoreBreakdown: { must, preferred: [] },
    }),
    must,
  };
});

/** The median of ROUNDS timings of `work` over every lead, in ms. */
function time(work: (lead: (typeof leads)[number]) => unknown): number {
  const timings: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const start = process.hrtime.bigint();
    for (const lead of leads) work(lead);
    timings.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return timings.sort((a, b) => a - b)[ROUNDS >> 1]!;
}

const rows: [string, (lead: (typeof leads)[number]) => unknown, (lead: (typeof leads)[number]) => unknown][] = [
  ['parcel', (lead) => JSON.parse(parcelCandidateJson(lead.parcel)), (lead) => parcelCandidateValue(lead.parcel)],
  ['evaluation (with geometry)', (lead) => JSON.parse(discoveryResultJson(lead.result, { geometry: true })), (lead) => discoveryResultValue(lead.result, { geometry: true })],
  ['failed evidence', (lead) => JSON.parse(mustEvidenceJson(lead.must)), (lead) => mustEvidenceValues(lead.must)],
  ['applied spec', () => JSON.parse(buyBoxSpecJson(spec)), () => buyBoxSpecValue(spec)],
];
console.log(`${LEADS} leads, median of ${ROUNDS} rounds, ms`);
console.log('| shape | JSON.parse(writer text) (peer) | value builder |');
console.log('|---|---:|---:|');
for (const [name, roundTrip, value] of rows) {
  time(roundTrip);
  time(value);
  console.log(`| ${name} | ${time(roundTrip).toFixed(1)} | ${time(value).toFixed(1)} |`);
}
