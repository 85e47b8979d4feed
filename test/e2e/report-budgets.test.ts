// Each PDF report renders within a time and a size budget (D39, docs/decisions.md "Isolation"):
// a document over its size budget is 422 report_too_large, one over its time budget 503
// report_timeout (its render worker is replaced), and the server answers on as before — over
// HTTP, with budgets small enough that an ordinary site report exceeds them.

import { afterEach, describe, expect, it } from 'vitest';
import type { Config } from '@landscreen/config';
import { entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';

const HEADERS = { authorization: 'Bearer dev:bea@budget.test', 'x-tenant': 'budget-co' };
const PARCEL = {
  geometry: { type: 'Polygon' as const, coordinates: [[[-97.5, 30.5], [-97.49, 30.5], [-97.49, 30.51], [-97.5, 30.51], [-97.5, 30.5]]] },
  properties: { parcel_key: 'bud-1', apn: 'BUD-1', address: '1 Budget Road', zoning: 'AG', acres: 80 },
};
const SPEC = { markets: ['bud-tx'], must: [{ field: 'acres', op: 'gte', value: 10 }], preferred: [], verdict_cutoffs: { pursue: 70, monitor: 40 } };

/** A stack with these report budgets and one promoted property; answers the property's id. */
async function stackWithProperty(reports: Config['reports']): Promise<{ app: TestStack; propertyId: string }> {
  const app = await startTestStack('pglite', { config: { reports } });
  expect((await app.get('/v1/me', { headers: HEADERS })).status).toBe(200);
  await loadMarket(app.stack.database.db, 'bud-tx', [PARCEL]);
  await entitleTenant(app.stack.database.db, 'budget-co', 'bud-tx');
  expect((await app.post('/v1/buyboxes', { name: 'bud', spec: SPEC }, { headers: HEADERS })).status).toBe(201);
  const page = (await app.post('/v2/discovery/query', { buy_box: 'bud' }, { headers: HEADERS })).body;
  const promoted = await app.post('/v2/pipeline', { parcel_key: 'bud-1', buy_box: 'bud', query_hash: page.query_hash }, { headers: HEADERS });
  expect(promoted.status).toBe(202);
  return { app, propertyId: promoted.body.property_id };
}

describe('PDF report budgets', () => {
  let app: TestStack | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  /** The server still answers: liveness, and the same property as JSON. */
  async function stillAnswers(propertyId: string) {
    expect((await app!.get('/healthz')).body.status).toBe('ok');
    const property = await app!.get(`/v1/properties/${propertyId}`, { headers: HEADERS });
    expect(property.status).toBe(200);
    expect(property.body.property.apn).toBe('BUD-1');
  }

  it('answers a report over its size budget 422 report_too_large, every time, and serves on', async () => {
    const started = await stackWithProperty({ workers: 1, timeoutMs: 120_000, maxBytes: 2_048 });
    app = started.app;
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await app.get(`/v1/properties/${started.propertyId}/pdf`, { headers: HEADERS });
      expect(response.status).toBe(422);
      expect(response.body).toEqual({ detail: expect.stringContaining('larger than a report may be'), code: 'report_too_large' });
    }
    await stillAnswers(started.propertyId);
  });

  it('answers a report over its time budget 503 report_timeout, replaces its worker, and serves on', async () => {
    const started = await stackWithProperty({ workers: 1, timeoutMs: 1, maxBytes: 64 * 1024 * 1024 });
    app = started.app;
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await app.get(`/v1/properties/${started.propertyId}/pdf`, { headers: HEADERS });
      expect(response.status).toBe(503);
      expect(response.body).toEqual({ detail: expect.stringContaining('did not render within'), code: 'report_timeout' });
    }
    await stillAnswers(started.propertyId);
  });
});
