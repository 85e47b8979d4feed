import { describe, expect, it } from 'vitest';
import type { Job, JobStep, PropertySubject } from '../../api-types.js';
import type { StepInput } from '../provider.js';
import { BUILTIN_PROVIDERS } from './index.js';

const step = (name: string, position: number, extra: Partial<JobStep> = {}): JobStep => ({
  name, position, status: 'pending', attempts: 0, provider: null, provider_version: null, provider_request_id: null, data: null, citations: [], cost_usd: '0.0000', error: null, started_at: null, completed_at: null, ...extra,
});
const job = {
  id: 'job-1', status: 'running', property_id: 'prop-1', market_id: 'm-1', vintage_id: 'v-1', parcel_key: 'TX-001',
  steps: ['parcel_record', 'point_data', 'hosting_capacity', 'utility_findings', 'owner_contact', 'report'].map((name, i) => step(name, i)),
} as unknown as Job;

const property = (facts: { typed?: Record<string, unknown>; derived?: Record<string, unknown> } = {}, contacts: PropertySubject['contacts'] = []): PropertySubject => ({
  property: {
    id: 'prop-1', market: 'demo-tx', parcel_key: 'TX-001', vintage_id: 'v-1', apn: '123-45', address: '1 Ranch Rd', lat: 30.1, lon: -97.2, acres: 120.5,
    parcel: {
      market: 'demo-tx', vintage_id: 'v-1', parcel_key: 'TX-001', apn: '123-45', address: '1 Ranch Rd', lat: 30.1, lon: -97.2, geometry: { type: 'Polygon' },
      typed: { acres: 120.5, developable_acres: 100, zoning: 'AG', land_use: 'Vacant', owner_name: 'Acme Land LLC', assessed_value_usd: 900000, apn: '123-45', address: '1 Ranch Rd', ...facts.typed },
      derived: { ...facts.derived },
      free_facts: {},
      provenance: {},
    },
  },
  contacts,
});

const run = (name: string, page: PropertySubject | null, jobOverride: Job = job) =>
  BUILTIN_PROVIDERS[name]!.run({ job: jobOverride, step: jobOverride.steps.find((s) => s.name === name)!, tenant: 'demo', property: page, requestId: `req-${name}` } satisfies StepInput);

const GRID = {
  nearest_substation_distance_m: 2400, nearest_substation_max_voltage_kv: 138, nearest_transmission_line_distance_m: 900, nearest_transmission_line_voltage_kv: 345,
  electric_utility_service_territory: 'Oncor', elevation: 210, slope_degrees: 1.5,
};

describe('built-in providers', () => {
  it('compute from the parcel facts, free of charge, deterministically', async () => {
    const page = property({ derived: GRID });
    const record = await run('parcel_record', page);
    expect(record).toMatchObject({ status: 'ready', provider: 'landscreen-builtin', provider_version: '1', provider_request_id: 'req-parcel_record', cost_usd: '0.0000' });
    expect(record.data).toMatchObject({ summary: 'APN 123-45: 120.5 acres, zoned AG.', record: { owner_name: 'Acme Land LLC', geometry_type: 'Polygon' }, missing: [] });
    expect(record.citations).toEqual([{ source: 'parcel_vintage', market: 'demo-tx', vintage_id: 'v-1', parcel_key: 'TX-001' }]);
    expect(await run('parcel_record', page)).toEqual(record);

    const points = await run('point_data', page);
    expect(points.status).toBe('ready');
    expect(points.data).toMatchObject({ field_count: 7, layers: { terrain: { elevation: 210, slope_degrees: 1.5 }, utilities: { electric_utility_service_territory: 'Oncor' } } });

    const grid = await run('hosting_capacity', page);
    expect(grid.status).toBe('ready');
    expect(grid.data!.summary).toBe('Grid on record: nearest substation 2.4 km away (138 kV); nearest transmission line 0.9 km (345 kV). Indicative only; no load-flow study.');

    const utilities = await run('utility_findings', page);
    expect(utilities).toMatchObject({ status: 'ready', data: { summary: 'Served by Oncor.' } });
  });

  it('say what is missing instead of making it up', async () => {
    const bare = property({ typed: { owner_name: null, acres: null } });
    expect((await run('parcel_record', bare)).data).toMatchObject({ missing: ['acres'] });
    expect((await run('parcel_record', bare)).status).toBe('partial');
    expect((await run('point_data', bare)).status).toBe('partial');
    expect((await run('hosting_capacity', bare)).status).toBe('needs_review');
    expect((await run('hosting_capacity', property({ derived: { nearest_transmission_line_distance_m: 900 } }))).status).toBe('partial');
    expect((await run('utility_findings', bare)).status).toBe('needs_review');
    expect((await run('owner_contact', bare)).status).toBe('needs_review');
    expect((await run('owner_contact', property())).data).toMatchObject({ summary: 'Owner of record: Acme Land LLC; no contact details on record.' });
    for (const name of ['parcel_record', 'point_data', 'hosting_capacity', 'utility_findings', 'owner_contact']) {
      expect(await run(name, null)).toMatchObject({ status: 'needs_review', data: { summary: expect.stringContaining('not available to the worker') } });
    }
  });

  it('take a revealed contact as the owner contact', async () => {
    const page = property({}, [{ id: 'c-1', contact: { name: 'Jo' }, provider: 'skiptrace', created_at: '2026-11-22T00:00:00.000Z' }]);
    expect(await run('owner_contact', page)).toMatchObject({
      status: 'ready',
      data: { summary: '1 contact on record (latest from skiptrace).', contact_ids: ['c-1'] },
      citations: [{ source: 'revealed_contact', contact_id: 'c-1', provider: 'skiptrace' }],
    });
  });

  it('report the other steps as they stand', async () => {
    const done = { ...job, steps: job.steps.map((s, i) => (i < 5 ? { ...s, status: i === 4 ? 'partial' : 'ready', data: { summary: `${s.name} done` } } : s)) } as Job;
    const report = await run('report', null, done);
    expect(report.status).toBe('ready');
    expect(report.data).toMatchObject({ summary: 'Diligence of parcel TX-001: 5 steps (1 partial, 4 ready).', by_status: { ready: 4, partial: 1 } });
    expect((report.data!.steps as unknown[])[0]).toEqual({ step: 'parcel_record', status: 'ready', summary: 'parcel_record done' });
  });
});
