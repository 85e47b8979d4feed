import { describe, expect, it } from 'vitest';
import { describeBusContract } from './bus-contract.test-helper.js';
import { createMemoryBus } from './memory-bus.js';
import { sleep, waitFor } from './test-wait.js';

describeBusContract('memory', async () => {
  const bus = createMemoryBus();
  // In one process every replica shares the one in-process bus.
  return { bus, peer: async () => bus, dispose: async () => {} };
});

describe('memory bus specifics', () => {
  it('delivers an id again once the duplicate window has passed', async () => {
    let clock = 0;
    const bus = createMemoryBus({ duplicateWindowMs: 50, now: () => clock });
    await bus.ensureStream('S', ['s.>']);
    const seen: string[] = [];
    await bus.subscribe('S', { durable: 'd', subjects: ['s.>'] }, async (e) => void seen.push(e.id));
    await bus.publish('s.a', {}, { id: 'x' });
    clock += 49;
    await bus.publish('s.a', {}, { id: 'x' });
    clock += 2;
    await bus.publish('s.a', {}, { id: 'x' });
    await waitFor(() => seen.length === 2);
    await sleep(50);
    expect(seen).toEqual(['x', 'x']);
    await bus.close();
  });

  it('refuses streams whose subjects overlap another stream', async () => {
    const bus = createMemoryBus();
    await bus.ensureStream('A', ['a.>']);
    await expect(bus.ensureStream('B', ['a.x.*'])).rejects.toThrow(/overlap/);
    await bus.ensureStream('C', ['a']); // `a.>` needs at least one more token
    await bus.close();
  });

  it('rejects subscribing to a missing stream and bad options', async () => {
    const bus = createMemoryBus();
    await expect(bus.subscribe('nope', { durable: 'd', subjects: ['x'] }, async () => {})).rejects.toThrow(/not found/);
    await bus.ensureStream('S', ['s.>']);
    await expect(bus.subscribe('S', { durable: 'a.b', subjects: ['s.>'] }, async () => {})).rejects.toThrow(/durable/);
    await expect(bus.subscribe('S', { durable: 'd', subjects: ['s.>.x'] }, async () => {})).rejects.toThrow(/filter/);
    await expect(bus.subscribe('S', { durable: 'd', subjects: ['s.>'], concurrency: 0 }, async () => {})).rejects.toThrow(/concurrency/);
    await bus.close();
  });

  it('refuses use after close', async () => {
    const bus = createMemoryBus();
    await bus.ensureStream('S', ['s.>']);
    await bus.close();
    await expect(bus.publish('s.a', {}, { id: 'x' })).rejects.toThrow(/closed/);
  });

  it('hands each event a fresh copy of its data', async () => {
    const bus = createMemoryBus();
    await bus.ensureStream('S', ['s.>']);
    const data = { list: [1] };
    const seen: unknown[] = [];
    await bus.subscribe('S', { durable: 'a', subjects: ['s.>'] }, async (e) => void seen.push(e.data));
    await bus.subscribe('S', { durable: 'b', subjects: ['s.>'] }, async (e) => void seen.push(e.data));
    await bus.publish('s.a', data, { id: 'x' });
    data.list.push(2);
    await waitFor(() => seen.length === 2);
    expect(seen).toEqual([{ list: [1] }, { list: [1] }]);
    expect(seen[0]).not.toBe(seen[1]);
    await bus.close();
  });
});
