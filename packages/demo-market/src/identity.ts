// Who and where a parcel is: its APN, situs address and owner, written the way county appraisal
// rolls write them, untidy spellings included, so APN and address normalisation get exercised.

import {
  COMPANY_CORES,
  COMPANY_FORMS,
  COMPANY_PREFIXES,
  DIRECTIONALS,
  GIVEN_NAMES,
  RURAL_ROAD_KINDS,
  STREET_NAMES,
  STREET_SUFFIXES,
  SURNAMES,
} from './names.js';
import { FOUR_DIGITS, integerText } from './digits.js';
import { WeightedTable, type Random } from './random.js';

const APN_SPACE = 100_000_000;
/** Odd and not a multiple of 5, hence a unit modulo 10^8: index -> index * A + B is a bijection. */
const APN_MULTIPLIER = 36_548_917;

/** The largest market whose APNs are all distinct. */
export const MAX_DISTINCT_APNS = APN_SPACE;

// The same account (8 digits and a 2-digit suffix) written the ways appraisal rolls write it, by
// weight: "R-0123-4567-00", "R0123-4567-00", "R01234567-00", "r-0123-4567-00", "R 0123 4567 00",
// "R-01234567-00", "R.0123.4567.00". All normalise (letters and digits only, case-folded) to
// "r" + digits, so the APN stays unique after normalisation too.
const APN_STYLES = new WeightedTable([
  [0, 50],
  [1, 12],
  [2, 10],
  [3, 8],
  [4, 8],
  [5, 7],
  [6, 5],
]);

/**
 * The 8-digit account numbers of a market's parcels, in parcel order: (index * A + seed) mod 10^8,
 * a bijection of the index (A is a unit mod 10^8), so no two parcels share one without anyone
 * remembering the ones handed out, and neighbouring parcels do not get consecutive numbers. Kept
 * as a running sum, which stays in small integers (a product would need slow double modulo).
 */
export class AccountNumbers {
  private next: number;

  constructor(seedHash: number) {
    this.next = seedHash % APN_SPACE;
  }

  take(): number {
    const account = this.next;
    this.next += APN_MULTIPLIER;
    if (this.next >= APN_SPACE) this.next -= APN_SPACE;
    return account;
  }
}

/** The APN of an account, in one of the roll's spellings. */
export function apnFor(random: Random, account: number): string {
  const high = FOUR_DIGITS[Math.floor(account / 10_000)];
  const low = FOUR_DIGITS[account % 10_000];
  const suffix = random.chance(0.9) ? '00' : random.pick(SUFFIX_CODES);
  switch (APN_STYLES.pick(random)) {
    case 0:
      return 'R-' + high + '-' + low + '-' + suffix;
    case 1:
      return 'R' + high + '-' + low + '-' + suffix;
    case 2:
      return 'R' + high + low + '-' + suffix;
    case 3:
      return 'r-' + high + '-' + low + '-' + suffix;
    case 4:
      return 'R ' + high + ' ' + low + ' ' + suffix;
    case 5:
      return 'R-' + high + low + '-' + suffix;
    default:
      return 'R.' + high + '.' + low + '.' + suffix;
  }
}

const SUFFIX_CODES = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));



const SUFFIXES = new WeightedTable(STREET_SUFFIXES);
const RURAL_KINDS = new WeightedTable(RURAL_ROAD_KINDS);

interface Street {
  /** Everything after the house number, e.g. "N Lamar Blvd" or "FM 1826". */
  label: string;
  /** Next house number to hand out. */
  next: number;
  /** House numbers between neighbouring lots. */
  step: number;
}

/** The streets of one block; lots take numbers along them in order. */
export class BlockStreets {
  private readonly streets: Street[] = [];

  /**
   * @param urban urban influence at the block centre (city streets vs county roads)
   * @param coreDistanceKm distance of the block from the core: house numbers grow outwards
   * @param northOfCore / eastOfCore pick the directional a city street carries
   */
  constructor(random: Random, urban: number, coreDistanceKm: number, northOfCore: boolean, eastOfCore: boolean) {
    const count = urban > 0.25 ? random.int(3, 6) : random.int(1, 3);
    for (let i = 0; i < count; i++) {
      const base = 100 * Math.max(1, Math.min(299, Math.floor(coreDistanceKm * 8 + random.uniform(0, 20))));
      const city = urban > 0.25 || random.chance(0.2);
      this.streets.push({
        label: city ? cityStreet(random, northOfCore, eastOfCore) : ruralRoad(random),
        next: base + (random.chance(0.5) ? 1 : 0),
        step: city ? 2 * random.int(1, 20) : 2 * random.int(25, 200),
      });
    }
  }

  addressOf(random: Random): string {
    const street = this.streets[Math.floor(random.next() * this.streets.length)];
    const number = street.next;
    street.next += street.step;
    return integerText(number) + ' ' + street.label;
  }
}

function cityStreet(random: Random, northOfCore: boolean, eastOfCore: boolean): string {
  const name = random.pick(STREET_NAMES);
  const suffix = SUFFIXES.pick(random);
  if (!random.chance(0.25)) return `${name} ${suffix}`;
  // A directional names the side of the core the street is on, as in "N Lamar Blvd".
  const directional = random.chance(0.5) ? (northOfCore ? DIRECTIONALS[0] : DIRECTIONALS[1]) : eastOfCore ? DIRECTIONALS[2] : DIRECTIONALS[3];
  return `${directional} ${name} ${suffix}`;
}

function ruralRoad(random: Random): string {
  const kind = RURAL_KINDS.pick(random);
  switch (kind) {
    case 'FM':
      return `FM ${random.int(150, 3500)}`;
    case 'County Road':
      return `County Road ${random.int(100, 499)}`;
    case 'Ranch Road':
      return `Ranch Road ${random.int(12, 3238)}`;
    case 'Private Road':
      return `Private Road ${random.int(1000, 9999)}`;
    default:
      return `State Highway ${random.int(21, 304)}`;
  }
}

const COMPANY_FORM_TABLE = new WeightedTable(COMPANY_FORMS);

export function companyName(random: Random): string {
  return `${random.pick(COMPANY_PREFIXES)} ${random.pick(COMPANY_CORES)} ${COMPANY_FORM_TABLE.pick(random)}`;
}

type OwnerKind = 'company' | 'family' | 'trust' | 'estate' | 'public' | 'portfolio';

const OWNER_KINDS = new WeightedTable<OwnerKind>([
  ['company', 30],
  ['family', 40],
  ['trust', 14],
  ['estate', 4],
  ['public', 3],
  ['portfolio', 9],
]);

/**
 * The owner as the roll spells it. `portfolio` holders are a fixed set of companies per market
 * that own many parcels each, as land funds and developers do; a quarter of the names are in the
 * roll's upper case.
 */
export function ownerName(random: Random, portfolio: readonly string[], district: string, agricultural: boolean): string {
  const name = ownerOf(random, OWNER_KINDS.pick(random), portfolio, district, agricultural);
  return random.chance(0.25) ? name.toUpperCase() : name;
}

function ownerOf(random: Random, kind: OwnerKind, portfolio: readonly string[], district: string, agricultural: boolean): string {
  const surname = random.pick(SURNAMES);
  switch (kind) {
    case 'company':
      return companyName(random);
    case 'portfolio':
      return random.pick(portfolio);
    case 'family': {
      const form = random.int(0, 4);
      if (form === 0) return `${surname} Family Partnership Ltd`;
      if (form === 1) return `${surname}, ${random.pick(GIVEN_NAMES)} & ${random.pick(GIVEN_NAMES)}`;
      if (form === 2) return agricultural ? `${surname} Ranch LP` : `${random.pick(GIVEN_NAMES)} ${surname}`;
      if (form === 3) return `${surname} Family Limited Partnership`;
      return `${random.pick(GIVEN_NAMES)} ${random.pick(GIVEN_NAMES).charAt(0)} ${surname}`;
    }
    case 'trust': {
      const form = random.int(0, 3);
      if (form === 0) return `${random.pick(GIVEN_NAMES)} ${surname} Revocable Trust`;
      if (form === 1) return `${surname} Family Trust`;
      if (form === 2) return `${surname} ${random.int(1975, 2022)} Irrevocable Trust`;
      return `The ${surname} Living Trust`;
    }
    case 'estate':
      return `Estate of ${random.pick(GIVEN_NAMES)} ${surname}`;
    default: {
      const form = random.int(0, 2);
      if (form === 0) return 'State of Texas';
      if (form === 1) return district;
      return 'Capital County';
    }
  }
}
