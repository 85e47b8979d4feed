import type { Column } from '../ranking/columns.js';
import type { Ranking } from '../ranking/rank.js';
import type { VintageIndex } from '../ranking/vintage-index.js';
import type { VerdictMap } from '../tiles/verdict-map.js';
import { listBytes, stringsBytes, typedBytes } from './sizes.js';

/** A vintage's ranking index: keys, their order, and every fact column. */
export function vintageIndexBytes(index: VintageIndex): number {
  let bytes = stringsBytes(index.keys) + typedBytes(index.keyRank, index.rowsByKey);
  for (const [, column] of index.entries()) bytes += columnBytes(column);
  return bytes;
}

function columnBytes(column: Column): number {
  if (column.kind === 'number') return column.values.byteLength;
  if (column.kind === 'coded') return column.codes.byteLength + stringsBytes(column.dictionary);
  return listBytes(column.values);
}

/** One cached ranking: its eligible rows, scores and review flags (its head page is small beside them). */
export function rankingBytes(ranking: Ranking): number {
  return typedBytes(ranking.rows, ranking.scores, ranking.review);
}

/** A map's view of one ranking: verdict and score by parcel. */
export function verdictMapBytes(view: VerdictMap): number {
  return typedBytes(view.verdict, view.score);
}
