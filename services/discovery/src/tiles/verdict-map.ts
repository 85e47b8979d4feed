import { verdictOf, type Cutoffs } from '@landscreen/buybox-spec';
import type { ParcelIndex } from '../locate/parcel-index.js';
import type { Ranking } from '../ranking/rank.js';
import type { VintageIndex } from '../ranking/vintage-index.js';

/** Verdict codes by parcel: 0 is not eligible. */
export const VERDICTS = ['', 'HOLD', 'MONITOR', 'PURSUE'] as const;
const CODE = { HOLD: 1, MONITOR: 2, PURSUE: 3 } as const;

/** A ranking as a map reads it: verdict and score by the parcel index's position. */
export interface VerdictMap {
  verdict: Uint8Array;
  score: Float64Array;
}

/** Steps of the walk below between turns of the event loop (a few ms). */
const SLICE = 1 << 16;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
const NO_ROW = 0xffffffff;

/**
 * The vintage row of each parcel of the parcel index: the two are built from the same vintage but
 * ordered apart (the parcel index as imported or by key, the ranking index as imported). Both
 * know their positions in ascending key order, so one walk of the two orders side by side pairs
 * them (a binary search per parcel took seconds at a million parcels, each probe decoding a key);
 * a parcel the walk does not pair (not in the ranking, or orders that disagree) is looked up. The
 * walk yields to the event loop between slices.
 */
export async function rowsOfParcels(parcels: ParcelIndex, index: VintageIndex): Promise<Uint32Array> {
  const rows = new Uint32Array(parcels.size).fill(NO_ROW);
  const order = parcels.keyOrder;
  const byKey = index.rowsByKey;
  let rank = 0;
  let rankKey = byKey.length > 0 ? index.keys.at(byKey[0]!) : undefined;
  let steps = 0;
  for (let p = 0; p < order.length; p++) {
    const id = order[p]!;
    const key = parcels.keys.at(id)!;
    while (rankKey !== undefined && rankKey < key) {
      rank++;
      rankKey = rank < byKey.length ? index.keys.at(byKey[rank]!) : undefined;
      if (++steps % SLICE === 0) await nextTurn();
    }
    rows[id] = rankKey === key ? byKey[rank]! : (index.rowOfKey(key) ?? NO_ROW);
    if (++steps % SLICE === 0) await nextTurn();
  }
  return rows;
}

/** Spreads a ranking (eligible rows ascending, their scores and review flags) onto the parcel index's positions. */
export function verdictMap(ranking: Ranking, rowOfParcel: Uint32Array, rowCount: number, cutoffs: Cutoffs): VerdictMap {
  const verdictByRow = new Uint8Array(rowCount);
  const scoreByRow = new Float64Array(rowCount);
  for (let i = 0; i < ranking.rows.length; i++) {
    const row = ranking.rows[i]!;
    const score = ranking.scores[i]!;
    scoreByRow[row] = score;
    verdictByRow[row] = CODE[verdictOf(score, cutoffs, ranking.review[i] === 1)];
  }
  const verdict = new Uint8Array(rowOfParcel.length);
  const score = new Float64Array(rowOfParcel.length);
  for (let id = 0; id < rowOfParcel.length; id++) {
    const row = rowOfParcel[id]!;
    if (row >= rowCount) continue;
    verdict[id] = verdictByRow[row]!;
    score[id] = scoreByRow[row]!;
  }
  return { verdict, score };
}
