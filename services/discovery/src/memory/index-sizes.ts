import type { Column } from '../ranking/columns.js';
import type { Ranking } from '../ranking/rank.js';
import type { VintageIndex } from '../ranking/vintage-index.js';
import type { VerdictMap } from '../tiles/verdict-map.js';
import { ByteCount } from './sizes.js';

/** A vintage's ranking index: keys, their order, and the fact columns (and lone dictionaries) resident. */
export function vintageIndexBytes(index: VintageIndex): number {
  const count = new ByteCount().list(index.keys).views(index.keyRank, index.rowsByKey);
  const { columns, dictionaries } = index.resident.held();
  for (const column of columns) countColumn(count, column);
  for (const dictionary of dictionaries) count.list(dictionary);
  return count.total();
}

/** One fact column alone: its values or codes, and its dictionary. */
export function columnBytes(column: Column): number {
  return countColumn(new ByteCount(), column).total();
}

/** The keys of an index alone, as the budget counts them. */
export function keyBytes(index: VintageIndex): number {
  return new ByteCount().list(index.keys).total();
}

function countColumn(count: ByteCount, column: Column): ByteCount {
  if (column.kind === 'number') return count.views(column.values);
  if (column.kind === 'coded') return count.views(column.slots).list(column.dictionary);
  return count.list(column.values);
}

/** One cached ranking: its eligible rows, scores and review flags (its head page is small beside them). */
export function rankingBytes(ranking: Ranking): number {
  return new ByteCount().views(ranking.rows, ranking.scores, ranking.review).total();
}

/** A map's view of one ranking: verdict and score by parcel. */
export function verdictMapBytes(view: VerdictMap): number {
  return new ByteCount().views(view.verdict, view.score).total();
}
