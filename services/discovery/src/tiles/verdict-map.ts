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

/**
 * The vintage row of each parcel of the parcel index: the two are built from the same vintage but
 * ordered apart (the parcel index by the database's key order, the ranking index as imported).
 */
export function rowsOfParcels(parcels: ParcelIndex, index: VintageIndex): Uint32Array {
  const rows = new Uint32Array(parcels.size);
  for (let id = 0; id < parcels.size; id++) rows[id] = index.rowOfKey(parcels.keys[id]!) ?? 0xffffffff;
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
