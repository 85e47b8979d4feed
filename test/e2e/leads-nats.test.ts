import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import type { EventBus } from '@landscreen/events';
import { FULFIL_FAULT_BEFORE_COMMIT } from '../../services/pipeline/src/leads/fulfil.js';
import { LEAD_REQUEST_CREATED } from '../../services/pipeline/src/leads/events.js';
import { waitFor } from '../../packages/events/src/test-wait.js';
import { connect } from 'nats';
import { LEAD_WORKER_DURABLE } from '../../services/pipeline/src/leads/worker.js';
import { LEADS_STREAM } from '../../services/pipeline/src/leads/events.js';
import { connectTestBus, startPrivateNats, type PrivateNats } from './relay-harness.js';
import { LEAD_PARCELS, LEAD_SPEC } from './leads-fixture.js';

const ACME = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };

/** True once the lead worker's durable has every stored event delivered and acked. */
async function consumerIdle(url: string): Promise<boolean> {
  const nc = await connect({ servers: url });
  try {
    const info = await (await nc.jetstreamManager()).consumers.info(LEADS_STREAM, LEAD_WORKER_DURABLE);
    return info.num_pending === 0 && info.num_ack_pending === 0;
  } finally {
    await nc.close();
  }
}

/**
 * D30 over real NATS JetStream (a private server) and real PostgreSQL: the request and its event
 * are written together, the relay publishes the event to the LEADS stream, the pipeline's lead
 * worker (a durable consumer) fulfils it. A crash inside the delivery's transaction leaves nothing
 * and the redelivered event fulfils the request once; an event delivered again changes nothing.
 */
describe('lead requests over NATS JetStream on PostgreSQL', () => {
  let nats: PrivateNats;
  let bus: EventBus;
  let app: TestStack;
  let ranked: string[];
  /** Crashes the delivery's transaction this many more times. */
  let crashes = 0;
  /** Runs at the crash, before the transaction rolls back (what happened meanwhile). */
  let atCrash: (() => Promise<void>) | undefined;
  const db = () => app.stack.database.db;

  async function handled(id: string) {
    let done: any;
    await waitFor(async () => {
      const list = await app.get('/v1/lead-requests', { headers: ACME });
      done = list.body.lead_requests.find((request: any) => request.id === id && request.status !== 'open');
      return done !== undefined;
    }, 'the lead request to be handled');
    return done;
  }

  beforeAll(async () => {
    nats = await startPrivateNats();
    bus = await connectTestBus(nats.url, 'stack');
    app = await startTestStack('postgres', {
      bus,
      config: { relay: { pollMs: 20, batchSize: 500, retentionHours: 168 } },
      faults: async (point) => {
        if (point === FULFIL_FAULT_BEFORE_COMMIT && crashes > 0) {
          crashes--;
          await atCrash?.();
          throw new Error('injected crash before the delivery commits');
        }
      },
    });
    expect((await app.get('/v1/me', { headers: ACME })).status).toBe(200);
    await loadMarket(db(), 'lead-tx', LEAD_PARCELS);
    await entitleTenant(db(), 'acme', 'lead-tx');
    expect((await app.post('/v1/buyboxes', { name: 'DC', spec: LEAD_SPEC }, { headers: ACME })).status).toBe(201);
    ranked = (await app.post('/v2/discovery/query', { buy_box: 'DC', limit: 200 }, { headers: ACME })).body.results.map((row: any) => row.parcel_key);
  });
  afterAll(async () => {
    await app?.close();
    await bus?.close();
    await nats?.close();
  });

  it('delivers in discovery\'s order without the promoted parcel or an earlier delivery\'s, count honoured', async () => {
    expect((await app.post('/v2/pipeline/direct', { parcel_key: ranked[1], buy_box: 'DC' }, { headers: ACME })).status).toBe(202);
    const first = await app.post('/v1/lead-requests', { buy_box: 'DC', count: 2 }, { headers: ACME });
    expect(first.status).toBe(201);
    const event = await sql<{ subject: string; published: boolean }>`
      select subject, published_at is not null as published from pipeline.outbox where data->>'lead_request_id' = ${first.body.id}`.execute(db());
    expect(event.rows.map((row) => row.subject)).toEqual([LEAD_REQUEST_CREATED]);
    const firstDone = await handled(first.body.id);
    expect(firstDone.status).toBe('fulfilled');
    const firstLeads = (await app.get(`/v1/deliveries/${firstDone.delivery_id}`, { headers: ACME })).body.leads.map((lead: any) => lead.parcel_key);
    expect(firstLeads).toEqual([ranked[0], ranked[2]]);

    const second = await app.post('/v1/lead-requests', { buy_box: 'DC', count: 3 }, { headers: ACME });
    const secondDone = await handled(second.body.id);
    const secondLeads = (await app.get(`/v1/deliveries/${secondDone.delivery_id}`, { headers: ACME })).body.leads.map((lead: any) => lead.parcel_key);
    expect(secondLeads).toEqual(ranked.slice(3, 6));
  });

  it('a crash inside the delivery leaves nothing; the redelivered event fulfils the request once', async () => {
    crashes = 1;
    const before = await sql<{ n: number }>`select count(*)::int as n from pipeline.deliveries`.execute(db());
    const request = await app.post('/v1/lead-requests', { buy_box: 'DC', count: 1 }, { headers: ACME });
    const done = await handled(request.body.id);
    expect(crashes).toBe(0);
    expect(done.status).toBe('fulfilled');
    const after = await sql<{ n: number }>`select count(*)::int as n from pipeline.deliveries`.execute(db());
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n + 1);
    const leads = (await app.get(`/v1/deliveries/${done.delivery_id}`, { headers: ACME })).body.leads;
    expect(leads.map((lead: any) => lead.parcel_key)).toEqual([ranked[6]]);
  });

  it('the same event delivered again changes nothing', async () => {
    const [request] = (await app.get('/v1/lead-requests', { headers: ACME })).body.lead_requests;
    const deliveries = await sql<{ n: number }>`select count(*)::int as n from pipeline.delivery_leads`.execute(db());
    // A duplicate as a relay retry past the stream's duplicate window would bring it.
    await bus.publish(LEAD_REQUEST_CREATED, { lead_request_id: request.id }, { id: crypto.randomUUID() });
    await waitFor(() => consumerIdle(nats.url), 'the lead worker to ack the duplicate');
    const after = await sql<{ n: number }>`select count(*)::int as n from pipeline.delivery_leads`.execute(db());
    expect(after.rows[0]!.n).toBe(deliveries.rows[0]!.n);
    const again = (await app.get('/v1/lead-requests', { headers: ACME })).body.lead_requests.find((row: any) => row.id === request.id);
    expect(again).toEqual(request);
  });

  it('fails a request whose buy box was deleted before it could be delivered, with the reason', async () => {
    expect((await app.post('/v1/buyboxes', { name: 'Gone', spec: LEAD_SPEC }, { headers: ACME })).status).toBe(201);
    crashes = 1;
    atCrash = async () => {
      expect((await app.request('DELETE', '/v1/buyboxes/Gone', { headers: ACME })).status).toBe(204);
    };
    const request = await app.post('/v1/lead-requests', { buy_box: 'Gone', count: 2 }, { headers: ACME });
    expect(request.status).toBe(201);
    const done = await handled(request.body.id);
    atCrash = undefined;
    expect(done).toMatchObject({ status: 'failed', delivery_id: null, failure_code: 'buy_box_not_found', failure_reason: expect.stringContaining('Gone') });
    const delivered = await sql<{ n: number }>`select count(*)::int as n from pipeline.deliveries where lead_request_id = ${request.body.id}`.execute(db());
    expect(delivered.rows[0]!.n).toBe(0);
  });
});
