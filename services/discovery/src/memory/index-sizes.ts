import type { Ranking } from '../ranking/rank.js';
import type { VintageIndex } from '../ranking/vintage-index.js';
import type { VerdictMap } from '../tiles/verdict-map.js';
import { ByteCount } from './sizes.js';

/** A vintage's ranking index: keys, their order, and every fact column (from a file, views of one buffer). */
export function vintageIndexBytes(index: VintageIndex): number {
  const count = new ByteCount().list(index.keys).views(index.keyRank, index.rowsByKey);
  for (const [, column] of index.entries()) {
    if (column.kind === 'number') count.views(column.values);
    else if (column.kind === 'coded') count.views(column.codes).list(column.dictionary);
    else count.list(column.values);
  }
  return count.total();
}

/** One cached ranking: its eligible rows, scores and review flags (its head page is small beside them). */
export function rankingBytes(ranking: Ranking): number {
  return new ByteCount().views(ranking.rows, ranking.scores, ranking.review).total();
}

/** A map's view of one ranking: verdict and score by parcel. */
export function verdictMapBytes(view: VerdictMap): number {
  return new ByteCount().views(view.verdict, view.score).total();
}
