// D17: how APNs and addresses compare. The same functions run at import (stored normalised
// columns) and at resolve time, so a query and a parcel meet in one canonical form.

import { ADDRESS_ABBREVIATIONS, UNIT_DESIGNATOR_ABBREVIATIONS } from './usps-abbreviations.js';

export { trigrams, trigramSimilarity } from './trigram.js';

const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;

/** Letters and digits only, upper-cased: "0123-456.78a" → "012345678A". */
export function normaliseApn(apn: string): string {
  return apn.replace(NOT_ALNUM, '').toUpperCase();
}

const COMBINING_MARKS = /\p{M}+/gu;
const APOSTROPHES = /['’‘`]/g;
const HASH = /#/g;
const PUNCTUATION = /[^\p{L}\p{N}#]+/gu;

/**
 * Upper case, accents and punctuation stripped, spaces collapsed, and every word that is a USPS
 * street suffix, directional or unit designator replaced by its standard abbreviation, so that
 * "123 North Main Street, Suite 4" and "123 N. Main St Ste 4" are both "123 N MAIN ST STE 4".
 * Words are abbreviated wherever they stand (not only in the suffix slot): both sides of a
 * comparison go through the same function, so consistency is all that equality needs, and it
 * avoids guessing which word is the suffix in "Park Avenue Court".
 */
export function normaliseAddress(address: string): string {
  const words = address
    .normalize('NFKD')
    .replace(COMBINING_MARKS, '')
    .toUpperCase()
    .replace(APOSTROPHES, '') // "O'Brien" → "OBRIEN", not "O BRIEN"
    .replace(HASH, ' # ')
    .replace(PUNCTUATION, ' ')
    .split(' ');
  const out: string[] = [];
  for (const word of words) {
    if (word === '') continue;
    // "APT #4" and "APT 4" are the same unit; a bare "#4" stays "# 4".
    if (word === '#' && out.length > 0 && UNIT_DESIGNATOR_ABBREVIATIONS.has(out[out.length - 1])) continue;
    out.push(ADDRESS_ABBREVIATIONS.get(word) ?? word);
  }
  return out.join(' ');
}
