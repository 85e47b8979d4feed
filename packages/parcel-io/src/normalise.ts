// D17: how APNs and addresses compare. The same functions run at import (stored normalised
// columns) and at resolve time, so a query and a parcel meet in one canonical form.

import { ADDRESS_ABBREVIATIONS, UNIT_DESIGNATOR_ABBREVIATIONS } from './usps-abbreviations.js';

export { trigrams, trigramSimilarity } from './trigram.js';

const NOT_ALNUM = /[^\p{L}\p{N}]+/gu;

/** Letters and digits only, upper-cased: "0123-456.78a" → "012345678A". */
export function normaliseApn(apn: string): string {
  return apn.replace(NOT_ALNUM, '').toUpperCase();
}

const NON_ASCII = /[^\x00-\x7f]/;
const COMBINING_MARKS = /\p{M}+/gu;
const HAS_APOSTROPHE = /['’‘`]/;
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
  const ascii = !NON_ASCII.test(address);
  let text = ascii ? address.toUpperCase() : address.normalize('NFKD').replace(COMBINING_MARKS, '').toUpperCase();
  if (HAS_APOSTROPHE.test(text)) text = text.replace(APOSTROPHES, ''); // "O'Brien" → "OBRIEN", not "O BRIEN"
  const out: string[] = [];
  if (ascii) {
    // Nearly every US address: one scan slicing out [A-Z0-9] runs, no regex, no decomposition
    // (a million addresses per import, so this halves the cost of mapping a row).
    let start = -1;
    for (let i = 0; i <= text.length; i++) {
      const c = i < text.length ? text.charCodeAt(i) : 0x20;
      if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a)) {
        if (start < 0) start = i;
        continue;
      }
      if (start >= 0) {
        addWord(out, text.slice(start, i));
        start = -1;
      }
      if (c === 0x23) addWord(out, '#');
    }
  } else {
    for (const word of text.replace(HASH, ' # ').replace(PUNCTUATION, ' ').split(' ')) if (word !== '') addWord(out, word);
  }
  return out.join(' ');
}

function addWord(out: string[], word: string): void {
  // "APT #4" and "APT 4" are the same unit; a bare "#4" stays "# 4".
  if (word === '#' && out.length > 0 && UNIT_DESIGNATOR_ABBREVIATIONS.has(out[out.length - 1])) return;
  out.push(ADDRESS_ABBREVIATIONS.get(word) ?? word);
}
