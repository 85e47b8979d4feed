/**
 * Working buffers of a ranking, kept between rankings: allocating (and the collector reclaiming)
 * several megabytes per query cost more than the evaluation itself at a million parcels. Ranking
 * is synchronous and JavaScript runs one call at a time, so one set serves every ranking; what a
 * ranking keeps is copied out of them.
 */
export class Scratch {
  /** Rows still in the running. */
  rows = new Uint32Array(0);
  /** By row: 1 when a must rule on a `review` policy was unknown for it. */
  review = new Uint8Array(0);
  /** Per eligible row: which preferred rules pass, one bit per rule. */
  passed = new Uint32Array(0);
  /** Per eligible row: the sum of the weights of the preferred rules that pass (made on first use). */
  private sums = new Float64Array(0);
  /** 0, 1, 2, … : every row of a vintage, the list a ranking starts from. */
  private all = new Uint32Array(0);

  /** Makes every buffer hold at least `size` rows. */
  reserve(size: number): this {
    if (this.rows.length >= size) return this;
    this.rows = new Uint32Array(size);
    this.review = new Uint8Array(size);
    this.passed = new Uint32Array(size);
    return this;
  }

  /** The sums buffer, `count` long: only specs with many preferred rules need one. */
  sumsOf(count: number): Float64Array {
    if (this.sums.length < count) this.sums = new Float64Array(this.rows.length);
    return this.sums.subarray(0, count);
  }

  /** The rows 0 … size − 1 (read only). */
  allRows(size: number): Uint32Array {
    if (this.all.length < size) {
      this.all = new Uint32Array(size);
      for (let row = 0; row < size; row++) this.all[row] = row;
    }
    return this.all.subarray(0, size);
  }
}

export const scratch = new Scratch();
