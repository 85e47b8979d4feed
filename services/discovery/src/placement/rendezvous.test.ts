// Rendezvous hashing as placement relies on it: every replica computes the same owner from the
// same set, a replica joining takes markets only for itself, one leaving gives up only its own,
// and shares follow the weights.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { desiredReplica, type WeightedReplica } from './rendezvous.js';

const ids = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 8 });
const marketIds = fc.uniqueArray(fc.uuid(), { minLength: 1, maxLength: 60 });
const equal = (list: string[]): WeightedReplica[] => list.map((id) => ({ id, weight: 1 }));

describe('desiredReplica', () => {
  it('does not depend on the order replicas are listed in', () => {
    fc.assert(
      fc.property(ids, marketIds, (replicas, markets) => {
        const reversed = equal([...replicas].reverse());
        for (const market of markets) expect(desiredReplica(market, equal(replicas))).toBe(desiredReplica(market, reversed));
      }),
    );
  });

  it('moves markets only to a replica that joins, and only from one that leaves', () => {
    fc.assert(
      fc.property(ids, fc.string({ minLength: 1, maxLength: 12 }), marketIds, (replicas, joining, markets) => {
        fc.pre(!replicas.includes(joining));
        const before = equal(replicas);
        const after = equal([...replicas, joining]);
        for (const market of markets) {
          const was = desiredReplica(market, before)!;
          const is = desiredReplica(market, after)!;
          expect(is === was || is === joining).toBe(true);
          // Leaving is the same step backwards: only the leaver's markets move.
          expect(desiredReplica(market, before)).toBe(is === joining ? was : is);
        }
      }),
    );
  });

  it('gives each replica about its weight’s share', () => {
    const replicas = [
      { id: 'small', weight: 1 },
      { id: 'large', weight: 3 },
    ];
    const counts = { small: 0, large: 0 };
    for (let i = 0; i < 4000; i++) counts[desiredReplica(`market-${i}`, replicas) as 'small' | 'large']++;
    expect(counts.large / 4000).toBeGreaterThan(0.7);
    expect(counts.large / 4000).toBeLessThan(0.8);
    expect(desiredReplica('market', [])).toBeUndefined();
  });
});
