// "Did you mean" for unknown field and preset names. Plain Levenshtein distance is enough for
// a vocabulary of a few hundred names and catches the usual typos (a dropped, doubled or
// swapped letter, a wrong unit suffix).

export function editDistance(a: string, b: string): number {
  if (a === b) return 0;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length];
}

/**
 * The closest candidate, or null when nothing is close enough to be a plausible typo: the
 * allowed distance grows with the length of the name (at least 2, a third of its length).
 * Ties go to the earlier candidate, which for the catalog means the spec's order.
 */
export function closestMatch(name: string, candidates: Iterable<string>): string | null {
  const wanted = name.trim().toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  let best: string | null = null;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(wanted, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : null;
}
