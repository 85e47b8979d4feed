/** Read-only scores indexed by row, as `ranking.score[row]`. */
export type ScoreByRow = { readonly [row: number]: number };

/**
 * A view of the eligible rows' scores by row number, for callers that know a row (the query
 * handler records the score of a page's last row in its cursor). A ranking keeps its scores
 * beside its eligible rows only: a dense array of every row's score was 8 MB per ranking at a
 * million parcels, and allocating it per query kept the collector busy. Undefined for a row that
 * is not eligible.
 */
export function scoreByRow(rows: Uint32Array, scores: Float64Array): ScoreByRow {
  const scoreOf = (row: number): number | undefined => {
    // `rows` is ascending: binary search.
    let low = 0;
    let high = rows.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (rows[middle]! < row) low = middle + 1;
      else high = middle;
    }
    return rows[low] === row ? scores[low] : undefined;
  };
  return new Proxy({} as ScoreByRow, {
    get: (_target, key) => (typeof key === 'string' && /^\d+$/.test(key) ? scoreOf(Number(key)) : undefined),
  });
}
