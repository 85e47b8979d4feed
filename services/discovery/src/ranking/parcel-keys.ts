/**
 * The parcel_key of each row of a vintage: an array, or (an index read from a local file) the keys'
 * UTF-8 bytes decoded one at a time (utf8-strings.ts). Ranking never reads keys (ties are broken by
 * their integer rank); a page's rows and a cursor's binary search do.
 */
export interface ParcelKeys {
  readonly length: number;
  at(row: number): string | undefined;
}
