// pg_trgm's trigrams and similarity, reimplemented so that an in-memory comparison agrees with
// `similarity()` computed in PostgreSQL: words are runs of letters and digits, lowercased, padded
// with two spaces before and one after; trigrams form a set; similarity = |A∩B| / |A∪B|.

const NON_WORD = /[^\p{L}\p{N}]+/u;

/** The distinct trigrams of `text`, sorted (as pg_trgm's show_trgm lists them). */
export function trigrams(text: string): string[] {
  return [...trigramSet(text)].sort();
}

/** 0..1; 0 when either side has no trigrams (pg_trgm does the same for empty strings). */
export function trigramSimilarity(a: string, b: string): number {
  const left = trigramSet(a);
  const right = trigramSet(b);
  if (left.size === 0 || right.size === 0) return 0;
  let shared = 0;
  for (const t of left) if (right.has(t)) shared++;
  return shared / (left.size + right.size - shared);
}

function trigramSet(text: string): Set<string> {
  const set = new Set<string>();
  for (const word of text.toLowerCase().split(NON_WORD)) {
    if (word === '') continue;
    // Code points, not UTF-16 units: pg_trgm counts characters, so "é" or an emoji is one.
    const chars = [' ', ' ', ...word, ' '];
    for (let i = 0; i + 2 < chars.length; i++) set.add(chars[i] + chars[i + 1] + chars[i + 2]);
  }
  return set;
}
