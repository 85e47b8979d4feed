import { randomBytes } from 'node:crypto';
import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BusEvent, EventBus } from './bus.js';
import { connectNatsBus } from './nats-bus.js';
import { isStreamNotFound } from './nats-errors.js';
import { busNames, scopeBus } from './scope.js';
import { DILIGENCE_STREAM, DILIGENCE_SUBJECTS } from './subjects.js';
import { waitFor } from './test-wait.js';

/** The machine's NATS server, shared with other runs: the scopes are this run's own. */
const NATS_URL = process.env.EVENTS_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

describe('bus scopes', () => {
  it('puts every name under the scope and refuses a scope that is not one token', () => {
    const names = busNames('deploy-1');
    expect(names.stream('DILIGENCE')).toBe('DILIGENCE_deploy-1');
    expect(names.subject('diligence.job.created')).toBe('deploy-1.diligence.job.created');
    expect(names.durable('runs-worker')).toBe('runs-worker_deploy-1');
    expect(names.unscoped('deploy-1.runs.chunk.ready')).toBe('runs.chunk.ready');
    expect(names.unscoped('deploy-2.runs.chunk.ready')).toBeUndefined();
    expect(busNames(undefined).subject('diligence.job.created')).toBe('diligence.job.created');
    for (const bad of ['a.b', 'a b', '*', '>', '', 'x'.repeat(33)]) expect(() => busNames(bad)).toThrow(/invalid bus scope/);
  });
});

describe('two deployments on one NATS server', () => {
  const run = randomBytes(4).toString('hex');
  const scopes = [`bus-test-a-${run}`, `bus-test-b-${run}`] as const;
  const buses: EventBus[] = [];
  let admin: NatsConnection;
  let jsm: JetStreamManager;

  beforeAll(async () => {
    admin = await connect({ servers: NATS_URL, name: 'events-scope-test-admin' });
    jsm = await admin.jetstreamManager();
    for (const scope of scopes) buses.push(scopeBus(await connectNatsBus(NATS_URL, { name: `events-scope-test-${scope}` }), scope));
  });

  afterAll(async () => {
    for (const bus of buses) await bus.close();
    for (const scope of scopes) {
      await jsm?.streams.delete(busNames(scope).stream(DILIGENCE_STREAM)).catch((error: unknown) => {
        if (!isStreamNotFound(error)) throw error;
      });
    }
    await admin?.close();
  });

  it('do not receive each other\'s events or broadcasts, under the same stream, subject and durable names', async () => {
    const [a, b] = buses as [EventBus, EventBus];
    const seen: Record<'a' | 'b', BusEvent[]> = { a: [], b: [] };
    const heard: Record<'a' | 'b', string[]> = { a: [], b: [] };
    for (const [key, bus] of [['a', a], ['b', b]] as const) {
      await bus.ensureStream(DILIGENCE_STREAM, DILIGENCE_SUBJECTS);
      await bus.subscribe(DILIGENCE_STREAM, { durable: 'diligence-worker', subjects: ['diligence.job.*'], concurrency: 1 }, async (event) => void seen[key].push(event));
      await bus.listen('auth.cache.*', (subject, data) => void heard[key].push(`${subject} ${(data as { from: string }).from}`));
    }

    // B first, then A: an event of B that reached A's stream would come before A's last one.
    await b.publish('diligence.job.created', { from: 'b' }, { id: 'job-1' });
    await a.publish('diligence.job.created', { from: 'a' }, { id: 'job-1' });
    await a.publish('diligence.job.completed', { from: 'a' }, { id: 'job-1.done' });
    await b.publish('diligence.job.completed', { from: 'b' }, { id: 'job-1.done' });
    await waitFor(() => seen.a.length >= 2 && seen.b.length >= 2, 'each deployment\'s two events');
    for (const key of ['a', 'b'] as const) {
      // The same event id in each: de-duplication is per deployment too.
      expect(seen[key].map((e) => [e.subject, e.id, e.data])).toEqual([
        ['diligence.job.created', 'job-1', { from: key }],
        ['diligence.job.completed', 'job-1.done', { from: key }],
      ]);
    }

    // A's notice has reached the server (and any listener's queue) before B sends its own.
    await a.broadcast('auth.cache.evict', { from: 'a' });
    await b.broadcast('auth.cache.evict', { from: 'b' });
    await waitFor(() => heard.b.length >= 1 && heard.a.length >= 1, 'each deployment\'s notice');
    await b.broadcast('auth.cache.end', { from: 'b' });
    await waitFor(() => heard.b.includes('auth.cache.end b'), 'B\'s last notice');
    expect(heard.a).toEqual(['auth.cache.evict a']);
    expect(heard.b).toEqual(['auth.cache.evict b', 'auth.cache.end b']);

    // On the server: a stream, subjects and a durable of each deployment's own.
    for (const scope of scopes) {
      const names = busNames(scope);
      const info = await jsm.streams.info(names.stream(DILIGENCE_STREAM));
      expect(info.config.subjects).toEqual([`${scope}.diligence.>`]);
      expect(info.state.messages).toBe(2);
      const consumer = (await jsm.consumers.info(names.stream(DILIGENCE_STREAM), names.durable('diligence-worker'))).config;
      expect(consumer.filter_subject ?? consumer.filter_subjects?.[0]).toBe(`${scope}.diligence.job.*`);
    }
  });
});
