// Tiles colour each parcel from the ranking row of the same parcel_key: the walk that pairs the
// parcel index's positions with the ranking index's rows must find every pair whatever order
// either index holds its parcels in, and leave unpaired the parcels the ranking does not hold.

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ParcelIndex, type IndexedParcelInput } from '../locate/parcel-index.js';
import { VintageIndexBuilder } from '../ranking/vintage-index.js';
import { rowsOfParcels } from './verdict-map.js';

const VINTAGE = '00000000-0000-4000-8000-000000000003';

const square = (key: string, i: number): IndexedParcelInput => {
  const [x, y] = [-97 + (i % 50) * 0.01, 30 + Math.floor(i / 50) * 0.01];
  return {
    parcel_key: key,
    geometry: { type: 'Polygon', coordinates: [[[x, y], [x + 0.005, y], [x + 0.005, y + 0.005], [x, y + 0.005], [x, y]]] },
    apn: null, address: null, owner_name: null, zoning: null, acres: 1, lat: y, lon: x,
  };
};

describe('rowsOfParcels', () => {
  it('pairs each parcel with the ranking row of its key, in any orders, unpaired when the ranking lacks it', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { minLength: 1, maxLength: 120 }),
        fc.func(fc.integer()),
        fc.func(fc.boolean()),
        async (keys, shuffle, kept) => {
          const parcels = ParcelIndex.build(VINTAGE, keys.map(square));
          const rankingKeys = keys.filter((key) => kept(key)).sort((a, b) => shuffle(a) - shuffle(b) || (a < b ? -1 : 1));
          const builder = new VintageIndexBuilder(VINTAGE);
          for (const key of rankingKeys) builder.add(key, { acres: 1 });
          const ranking = builder.build();
          const rows = await rowsOfParcels(parcels, ranking);
          for (let id = 0; id < parcels.size; id++) {
            const row = rankingKeys.indexOf(parcels.keys.at(id)!);
            expect(rows[id]).toBe(row === -1 ? 0xffffffff : row);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
