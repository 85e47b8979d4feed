import type { Ranking } from './rank.js';
import type { VintageIndex } from './vintage-index.js';

/** Where the previous page ended: its last row's score and parcel_key rank (D15 order). */
export interface PagePosition {
  score: number;
  keyRank: number;
}

export interface Page {
  rows: number[];
  /** Eligible rows after the page: there is a next page when > 0. */
  remaining: number;
}

/**
 * The next `limit` eligible rows in D15 order (score desc, parcel_key asc) after `after`, chosen
 * with a bounded heap in one pass: no sort of the whole market per page.
 */
export function pageAfter(index: VintageIndex, ranking: Ranking, limit: number, after?: PagePosition): Page {
  const { eligible, score } = ranking;
  const rankOf = index.keyRank;
  // "a comes before b"
  const before = (a: number, b: number) => score[a]! > score[b]! || (score[a] === score[b] && rankOf[a]! < rankOf[b]!);
  const heap: number[] = []; // the `limit` best so far, worst on top
  let candidates = 0;
  const siftUp = (at: number) => {
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!before(heap[parent]!, heap[at]!)) break;
      [heap[parent], heap[at]] = [heap[at]!, heap[parent]!];
      at = parent;
    }
  };
  const siftDown = (at: number) => {
    for (;;) {
      const left = 2 * at + 1;
      const right = left + 1;
      let worst = at;
      if (left < heap.length && before(heap[worst]!, heap[left]!)) worst = left;
      if (right < heap.length && before(heap[worst]!, heap[right]!)) worst = right;
      if (worst === at) return;
      [heap[worst], heap[at]] = [heap[at]!, heap[worst]!];
      at = worst;
    }
  };
  for (let row = 0; row < index.size; row++) {
    if (!eligible[row]) continue;
    if (after) {
      const value = score[row]!;
      if (value > after.score || (value === after.score && rankOf[row]! <= after.keyRank)) continue;
    }
    candidates++;
    if (heap.length < limit) {
      heap.push(row);
      siftUp(heap.length - 1);
    } else if (limit > 0 && before(row, heap[0]!)) {
      heap[0] = row;
      siftDown(0);
    }
  }
  heap.sort((a, b) => (before(a, b) ? -1 : 1));
  return { rows: heap, remaining: candidates - heap.length };
}
