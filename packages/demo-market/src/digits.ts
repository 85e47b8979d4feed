// Decimal text of small integers from tables made once. Formatting a number allocates and, for
// numbers outside V8's small number-string cache, takes a slow path; house numbers and APN digit
// groups are formatted for every parcel, and it showed up in profiles.

/** "0000" to "9999". */
export const FOUR_DIGITS: readonly string[] = Array.from({ length: 10_000 }, (_, i) => String(i).padStart(4, '0'));

/** "0" to "9999". */
const PLAIN: readonly string[] = Array.from({ length: 10_000 }, (_, i) => String(i));

/** The decimal text of a non-negative integer, as String(n) gives it. */
export function integerText(n: number): string {
  if (n < 10_000) return PLAIN[n];
  if (n < 100_000_000) return PLAIN[Math.floor(n / 10_000)] + FOUR_DIGITS[n % 10_000];
  return String(n);
}
