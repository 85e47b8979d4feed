// The memory budget drops whole vintages, least recently used first, never the one just used,
// and every cache drops its part of a vintage with it.

import { describe, expect, it } from 'vitest';
import { IndexMemory } from './index-memory.js';

describe('IndexMemory', () => {
  it('drops the least recently used vintages whole until the rest fits, never the one just used', () => {
    const memory = new IndexMemory(1_000);
    const dropped: string[] = [];
    memory.onDrop((vintageId) => dropped.push(vintageId));
    memory.set('v1', 'm1', 'ranking-index', 400);
    memory.set('v1', 'm1', 'parcel-index', 100);
    memory.set('v2', 'm2', 'ranking-index', 400);
    memory.use('v1');
    expect(memory.total()).toBe(900);
    // v3 does not fit beside both: v2 (used longest ago) goes, parts and all.
    memory.set('v3', 'm3', 'ranking-index', 300);
    expect(dropped).toEqual(['v2']);
    expect(memory.vintages()).toEqual([
      { vintageId: 'v1', marketId: 'm1', bytes: 500 },
      { vintageId: 'v3', marketId: 'm3', bytes: 300 },
    ]);
    // A vintage larger than the budget is held alone.
    memory.set('v4', 'm4', 'ranking-index', 5_000);
    expect(dropped).toEqual(['v2', 'v1', 'v3']);
    expect(memory.vintages().map((vintage) => vintage.vintageId)).toEqual(['v4']);
    expect(memory.total()).toBe(5_000);
  });

  it('counts additions and removals of a held vintage, and drops a market’s vintages together', () => {
    const memory = new IndexMemory(10_000);
    const dropped: string[] = [];
    memory.onDrop((vintageId) => dropped.push(vintageId));
    memory.set('old', 'm1', 'ranking-index', 100);
    memory.set('new', 'm1', 'ranking-index', 100);
    memory.set('other', 'm2', 'ranking-index', 100);
    memory.add('new', 'rankings', 50);
    memory.add('new', 'rankings', -20);
    // Nothing is counted for a vintage no longer held (a cache trimming after the drop).
    memory.add('gone', 'rankings', 70);
    expect(memory.total()).toBe(330);
    memory.dropMarket('m1');
    expect(dropped.sort()).toEqual(['new', 'old']);
    expect(memory.total()).toBe(100);
    expect(memory.holds('other')).toBe(true);
    memory.set('other', 'm2', 'ranking-index', 0);
    expect(memory.holds('other')).toBe(false);
    expect(memory.total()).toBe(0);
  });

  it('asks its shedders first, and drops vintages whole only for what shedding left over', () => {
    const memory = new IndexMemory(1_000);
    const dropped: string[] = [];
    const asked: number[] = [];
    memory.onDrop((vintageId) => dropped.push(vintageId));
    // A shedder that can give back 200 of v1's bytes (say, columns it can read again), once.
    let sheddable = 200;
    let v1 = 500;
    memory.onShed((excess) => {
      asked.push(excess);
      const shed = Math.min(excess, sheddable);
      sheddable -= shed;
      v1 -= shed;
      memory.resize('v1', 'ranking-index', v1);
    });
    memory.set('v1', 'm1', 'ranking-index', 500);
    memory.set('v2', 'm2', 'ranking-index', 400);
    expect(asked).toEqual([]);
    memory.set('v3', 'm3', 'ranking-index', 250);
    expect(asked).toEqual([150]);
    expect(dropped).toEqual([]);
    expect(memory.total()).toBe(1_000);
    // Past what can be shed (50 left), the least recently used vintage goes whole.
    memory.set('v4', 'm4', 'ranking-index', 100);
    expect(asked).toEqual([150, 100]);
    expect(dropped).toEqual(['v1']);
    expect(memory.total()).toBe(750);
  });
});
