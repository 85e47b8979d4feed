import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { BusEvent, EventBus } from './bus.js';
import { sleep, waitFor } from './test-wait.js';

export interface BusFixture {
  bus: EventBus;
  /** The same bus as another process sees it (another connection; in-process, the same bus). */
  peer(): Promise<EventBus>;
  /** Removes whatever the test left behind (after the bus is closed). */
  dispose(): Promise<void>;
}

/** Fresh stream name and subject prefix per test, so tests never see each other's events. */
function names(): { stream: string; prefix: string } {
  const id = randomBytes(5).toString('hex');
  return { stream: `T_${id}`, prefix: `t${id}` };
}

/**
 * The behaviour both buses must share. `makeFixture(stream)` opens a bus for one test, which
 * then creates `stream`; the fixture's dispose (run after the bus is closed) removes it.
 */
export function describeBusContract(name: string, makeFixture: (stream: string) => Promise<BusFixture>): void {
  describe(`${name}: EventBus contract`, () => {
    const open: BusFixture[] = [];
    const peers: EventBus[] = [];

    afterEach(async () => {
      for (const peer of peers.splice(0)) await peer.close();
      const fixtures = open.splice(0);
      for (const fixture of fixtures) {
        await fixture.bus.close();
        await fixture.dispose();
      }
    });

    async function setup(): Promise<{ bus: EventBus; stream: string; prefix: string; peer(): Promise<EventBus> }> {
      const { stream, prefix } = names();
      const fixture = await makeFixture(stream);
      open.push(fixture);
      await fixture.bus.ensureStream(stream, [`${prefix}.>`]);
      const peer = async () => {
        const bus = await fixture.peer();
        peers.push(bus);
        return bus;
      };
      return { bus: fixture.bus, stream, prefix, peer };
    }

    describe('broadcast (fan-out notices)', () => {
      it('reaches every listener of a matching filter, on this process and on every other one, once', async () => {
        const { bus, prefix, peer } = await setup();
        const other = await peer();
        const heard: string[] = [];
        await bus.listen(`x${prefix}.cache.*`, (subject, data) => void heard.push(`here-1 ${subject.slice(prefix.length + 2)} ${JSON.stringify(data)}`));
        await bus.listen(`x${prefix}.>`, (subject) => void heard.push(`here-2 ${subject.slice(prefix.length + 2)}`));
        await other.listen(`x${prefix}.cache.evict`, (subject) => void heard.push(`there ${subject.slice(prefix.length + 2)}`));
        await bus.listen(`x${prefix}.other`, () => void heard.push('wrong subject'));
        // No stream captures the subject: a broadcast needs none.
        await other.broadcast(`x${prefix}.cache.evict`, { session: 's1' });
        await waitFor(() => heard.length >= 3, 'three listeners');
        await sleep(100);
        expect(heard.sort()).toEqual(['here-1 cache.evict {"session":"s1"}', 'here-2 cache.evict', 'there cache.evict']);
      });

      it('keeps nothing: a listener hears only what is broadcast while it listens', async () => {
        const { bus, prefix, peer } = await setup();
        const other = await peer();
        await bus.broadcast(`x${prefix}.a`, { n: 1 });
        const heard: unknown[] = [];
        const listening = await other.listen(`x${prefix}.a`, (_subject, data) => void heard.push(data));
        await bus.broadcast(`x${prefix}.a`, { n: 2 });
        await waitFor(() => heard.length === 1, 'the second notice');
        await listening.stop();
        await bus.broadcast(`x${prefix}.a`, { n: 3 });
        await sleep(200);
        expect(heard).toEqual([{ n: 2 }]);
      });

      it('a listener that throws keeps neither the broadcaster nor the other listeners from their work', async () => {
        const { bus, prefix } = await setup();
        const heard: number[] = [];
        await bus.listen(`x${prefix}.a`, () => {
          throw new Error('listener failed');
        });
        await bus.listen(`x${prefix}.a`, (_subject, data) => void heard.push((data as { n: number }).n));
        await bus.broadcast(`x${prefix}.a`, { n: 1 });
        await bus.broadcast(`x${prefix}.a`, { n: 2 });
        await waitFor(() => heard.length === 2, 'both notices');
        expect(heard).toEqual([1, 2]);
      });

      it('refuses wildcard subjects to broadcast to and malformed filters', async () => {
        const { bus, prefix } = await setup();
        await expect(bus.broadcast(`x${prefix}.*`, {})).rejects.toThrow();
        await expect(bus.listen(`x${prefix}.>.a`, () => {})).rejects.toThrow();
      });
    });

    it('delivers a published event to a subscriber', async () => {
      const { bus, stream, prefix } = await setup();
      const seen: BusEvent[] = [];
      await bus.subscribe(stream, { durable: 'd1', subjects: [`${prefix}.>`] }, async (e) => void seen.push(e));
      await bus.publish(`${prefix}.job.created`, { job: 'j1', n: 1 }, { id: 'e1' });
      await waitFor(() => seen.length === 1, 'the event');
      expect(seen[0]).toEqual({ id: 'e1', subject: `${prefix}.job.created`, data: { job: 'j1', n: 1 }, deliveryCount: 1 });
    });

    it('ensureStream is idempotent and adds new subjects to an existing stream', async () => {
      const { bus, stream, prefix } = await setup();
      await bus.ensureStream(stream, [`${prefix}.>`]);
      await bus.ensureStream(stream, [`x${prefix}.>`]);
      const seen: string[] = [];
      await bus.subscribe(stream, { durable: 'd1', subjects: [`${prefix}.>`, `x${prefix}.>`], concurrency: 1 }, async (e) => {
        seen.push(e.subject);
      });
      await bus.publish(`${prefix}.a`, {}, { id: 'e1' });
      await bus.publish(`x${prefix}.a`, {}, { id: 'e2' });
      await waitFor(() => seen.length === 2, 'both events');
      expect(seen).toEqual([`${prefix}.a`, `x${prefix}.a`]);
    });

    it('rejects subscribing to a stream that does not exist', async () => {
      const { bus, stream, prefix } = await setup();
      await expect(bus.subscribe(`${stream}_NONE`, { durable: 'd1', subjects: [`${prefix}.>`] }, async () => {})).rejects.toThrow();
    });

    it('rejects a publish that no stream captures', async () => {
      const { bus, prefix } = await setup();
      await expect(bus.publish(`x${prefix}.nowhere`, {}, { id: 'e1' })).rejects.toThrow();
    });

    it('delivers an id published twice only once', async () => {
      const { bus, stream, prefix } = await setup();
      await bus.publish(`${prefix}.a`, { v: 1 }, { id: 'dup' });
      await bus.publish(`${prefix}.a`, { v: 2 }, { id: 'dup' });
      await bus.publish(`${prefix}.a`, { v: 3 }, { id: 'last' });
      const seen: BusEvent[] = [];
      await bus.subscribe(stream, { durable: 'd1', subjects: [`${prefix}.>`], concurrency: 1 }, async (e) => void seen.push(e));
      await waitFor(() => seen.some((e) => e.id === 'last'), 'the last event');
      await sleep(100);
      expect(seen.map((e) => [e.id, e.data])).toEqual([
        ['dup', { v: 1 }],
        ['last', { v: 3 }],
      ]);
    });

    it('redelivers after a handler failure with a growing deliveryCount', async () => {
      const { bus, stream, prefix } = await setup();
      const counts: number[] = [];
      await bus.subscribe(stream, { durable: 'd1', subjects: [`${prefix}.>`] }, async (e) => {
        counts.push(e.deliveryCount);
        if (e.deliveryCount < 3) throw new Error('not yet');
      });
      await bus.publish(`${prefix}.a`, {}, { id: 'e1' });
      await waitFor(() => counts.length === 3, 'three deliveries');
      await sleep(300);
      expect(counts).toEqual([1, 2, 3]);
    });

    it('gives an event up after maxDeliver failed deliveries', async () => {
      const { bus, stream, prefix } = await setup();
      let deliveries = 0;
      await bus.subscribe(stream, { durable: 'd1', subjects: [`${prefix}.>`], maxDeliver: 2 }, async () => {
        deliveries++;
        throw new Error('always');
      });
      await bus.publish(`${prefix}.a`, {}, { id: 'e1' });
      await waitFor(() => deliveries === 2, 'two deliveries');
      await sleep(1_000); // longer than the next backoff (500 ms) would be
      expect(deliveries).toBe(2);
    });

    it('redelivers an event whose handler outlives ackWait', async () => {
      const { bus, stream, prefix } = await setup();
      const counts: number[] = [];
      await bus.subscribe(stream, { durable: 'd1', subjects: [`${prefix}.>`], ackWaitMs: 300, concurrency: 2 }, async (e) => {
        counts.push(e.deliveryCount);
        if (e.deliveryCount === 1) await sleep(800);
      });
      await bus.publish(`${prefix}.a`, {}, { id: 'e1' });
      await waitFor(() => counts.includes(2), 'the redelivery');
    });

    it('never runs more than `concurrency` handlers at once', async () => {
      const { bus, stream, prefix } = await setup();
      let inFlight = 0;
      let peak = 0;
      const done = new Set<string>();
      // The first handlers wait until three run at once, however slowly the machine delivers; then
      // every handler stays a moment, in which a fourth would show were the limit not kept.
      let full!: () => void;
      const three = new Promise<void>((resolve) => (full = resolve));
      await bus.subscribe(stream, { durable: 'd1', subjects: [`${prefix}.>`], concurrency: 3 }, async (e) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        if (inFlight === 3) full();
        await three;
        await sleep(20);
        inFlight--;
        done.add(e.id);
      });
      for (let i = 0; i < 24; i++) await bus.publish(`${prefix}.a`, { i }, { id: `e${i}` });
      await waitFor(() => done.size === 24, 'all events');
      expect(peak).toBe(3);
    });

    it('gives a durable created after the publishes every earlier event, in order', async () => {
      const { bus, stream, prefix } = await setup();
      for (let i = 0; i < 5; i++) await bus.publish(`${prefix}.a`, { i }, { id: `e${i}` });
      const seen: number[] = [];
      await bus.subscribe(stream, { durable: 'late', subjects: [`${prefix}.>`], concurrency: 1 }, async (e) => {
        seen.push((e.data as { i: number }).i);
      });
      await waitFor(() => seen.length === 5, 'five events');
      expect(seen).toEqual([0, 1, 2, 3, 4]);
    });

    it('resumes a durable where it left off after stop', async () => {
      const { bus, stream, prefix } = await setup();
      const seen: string[] = [];
      const options = { durable: 'd1', subjects: [`${prefix}.>`], concurrency: 1 };
      const first = await bus.subscribe(stream, options, async (e) => void seen.push(e.id));
      await bus.publish(`${prefix}.a`, {}, { id: 'e1' });
      await waitFor(() => seen.length === 1, 'the first event');
      await first.stop();
      await bus.publish(`${prefix}.a`, {}, { id: 'e2' });
      await sleep(100);
      expect(seen).toEqual(['e1']);
      await bus.subscribe(stream, options, async (e) => void seen.push(e.id));
      await waitFor(() => seen.length === 2, 'the second event');
      await sleep(100);
      expect(seen).toEqual(['e1', 'e2']);
    });

    it('stop waits for in-flight handlers', async () => {
      const { bus, stream, prefix } = await setup();
      let started = false;
      let finished = false;
      const sub = await bus.subscribe(stream, { durable: 'd1', subjects: [`${prefix}.>`] }, async () => {
        started = true;
        await sleep(300);
        finished = true;
      });
      await bus.publish(`${prefix}.a`, {}, { id: 'e1' });
      await waitFor(() => started, 'the handler to start');
      await sub.stop();
      expect(finished).toBe(true);
    });

    it('shares a durable between subscribers without handing one event to both', async () => {
      const { bus, stream, prefix } = await setup();
      const handledBy = new Map<string, string[]>();
      const handler = (who: string) => async (e: BusEvent) => {
        handledBy.set(e.id, [...(handledBy.get(e.id) ?? []), who]);
        await sleep(10);
      };
      const options = { durable: 'shared', subjects: [`${prefix}.>`], concurrency: 2 };
      await bus.subscribe(stream, options, handler('A'));
      await bus.subscribe(stream, options, handler('B'));
      for (let i = 0; i < 40; i++) await bus.publish(`${prefix}.a`, { i }, { id: `e${i}` });
      await waitFor(() => handledBy.size === 40, 'all events');
      await sleep(100);
      const who = [...handledBy.values()];
      expect(who.every((list) => list.length === 1)).toBe(true);
      expect(who.some((list) => list[0] === 'A')).toBe(true);
      expect(who.some((list) => list[0] === 'B')).toBe(true);
    });

    it('matches subject filters with * and >', async () => {
      const { bus, stream, prefix } = await setup();
      const narrow: string[] = [];
      const wide: string[] = [];
      await bus.subscribe(
        stream,
        { durable: 'narrow', subjects: [`${prefix}.job.*`, `${prefix}.step.completed`], concurrency: 1 },
        async (e) => void narrow.push(e.subject.slice(prefix.length + 1)),
      );
      await bus.subscribe(stream, { durable: 'wide', subjects: [`${prefix}.step.>`], concurrency: 1 }, async (e) => {
        wide.push(e.subject.slice(prefix.length + 1));
      });
      const subjects = ['job.created', 'job.created.extra', 'step.completed', 'step.failed', 'step.x.y', 'other', 'job.done'];
      for (const [i, s] of subjects.entries()) await bus.publish(`${prefix}.${s}`, {}, { id: `e${i}` });
      await waitFor(() => narrow.includes('job.done') && wide.includes('step.x.y'), 'the last events');
      await sleep(100);
      expect(narrow).toEqual(['job.created', 'step.completed', 'job.done']);
      expect(wide).toEqual(['step.completed', 'step.failed', 'step.x.y']);
    });
  });
}
