import { describe, expect, it } from 'vitest';
import { normaliseAddress, normaliseApn, trigrams, trigramSimilarity } from './normalise.js';
import { ADDRESS_ABBREVIATIONS } from './usps-abbreviations.js';

describe('normaliseApn', () => {
  it.each([
    ['0123-456-789', '0123456789'],
    ['  01 23 456 789 ', '0123456789'],
    ['R123.45/6a', 'R123456A'],
    ['r123456a', 'R123456A'],
    ['12_34#56', '123456'],
    ['---', ''],
  ])('%j → %j', (apn, expected) => {
    expect(normaliseApn(apn)).toBe(expected);
  });
});

describe('normaliseAddress', () => {
  it.each([
    ['123 North Main Street, Suite 4', '123 N MAIN ST STE 4'],
    ['123 N. Main St Ste 4', '123 N MAIN ST STE 4'],
    ['123 n main st., ste. #4', '123 N MAIN ST STE 4'],
    ['  4500   SOUTHWEST  Parkway  ', '4500 SW PKWY'],
    ['77 Northeast Boulevard Apartment 12B', '77 NE BLVD APT 12B'],
    ['9 Oak Lane Unit #3', '9 OAK LN UNIT 3'],
    ['9 Oak Ln #3', '9 OAK LN # 3'],
    ['10 Circle Drive', '10 CIR DR'],
    ['1 Avenue of the Americas', '1 AVE OF THE AMERICAS'],
    ['8 Sunset Terrace', '8 SUNSET TER'],
    ['12 Pecan Trail', '12 PECAN TRL'],
    ['3 Hill Country Highway', '3 HL COUNTRY HWY'],
    ['5 Elm Court', '5 ELM CT'],
    ['6 Rose Place', '6 ROSE PL'],
    ['7 Lake Road', '7 LK RD'],
    ['11 Long Way', '11 LONG WAY'],
    ["21 O'Brien Road East", '21 OBRIEN RD E'],
    ['15 West 3rd Street', '15 W 3RD ST'],
    ['1200-B Ranch Rd 620 S', '1200 B RNCH RD 620 S'],
    ['Calle Peñasco 5, Edificio Ñ', 'CALLE PENASCO 5 EDIFICIO N'],
    ['', ''],
  ])('%j → %j', (address, expected) => {
    expect(normaliseAddress(address)).toBe(expected);
  });

  it('makes the two spellings of the brief equal', () => {
    expect(normaliseAddress('123 North Main Street, Suite 4')).toBe(normaliseAddress('123 N. Main St Ste 4'));
  });

  it('maps every abbreviation to a fixed point (normalising twice changes nothing)', () => {
    for (const standard of new Set(ADDRESS_ABBREVIATIONS.values())) expect(ADDRESS_ABBREVIATIONS.get(standard), standard).toBe(standard);
    const once = normaliseAddress('500 Northwest Highway Building 2 Floor 3 Room 4');
    expect(once).toBe('500 NW HWY BLDG 2 FL 3 RM 4');
    expect(normaliseAddress(once)).toBe(once);
  });
});

describe('trigrams (pg_trgm)', () => {
  it('pads each lowercased word with two spaces before and one after', () => {
    expect(trigrams('cat')).toEqual(['  c', ' ca', 'at ', 'cat']);
    expect(trigrams('Foo|bar')).toEqual(['  b', '  f', ' ba', ' fo', 'ar ', 'bar', 'foo', 'oo ']);
    expect(trigrams('a')).toEqual(['  a', ' a ']);
    expect(trigrams('  ,, ')).toEqual([]);
    expect(trigrams('aaaa')).toEqual(['  a', ' aa', 'aa ', 'aaa']); // a set: repeats count once
  });

  it('computes similarity as shared / union, as PostgreSQL does', () => {
    expect(trigramSimilarity('123 N MAIN ST', '123 N MAIN ST')).toBe(1);
    expect(trigramSimilarity('main', 'MAIN!')).toBe(1);
    expect(trigramSimilarity('abc', 'xyz')).toBe(0);
    expect(trigramSimilarity('', '')).toBe(0);
    expect(trigramSimilarity('word', 'two words')).toBeCloseTo(4 / 11, 12); // pg_trgm docs: 0.36363637
    expect(trigramSimilarity('cat', 'cats')).toBeCloseTo(3 / 6, 12);
    expect(trigramSimilarity('123 N MAIN ST', '123 N MAIN ST STE 4')).toBeCloseTo(14 / 18, 12); // all 14 of the shorter's trigrams, of 18
  });
});
