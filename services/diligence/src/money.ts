import { issue, validationError } from '@landscreen/rpc';

/**
 * Money (D24) in JavaScript is a count of ten-thousandths of a dollar in a bigint, read from and
 * written as decimal text: floats never touch it. In SQL it is numeric(12,4).
 */
export type Money = bigint;

const PLACES = 4;
const SCALE = 10n ** BigInt(PLACES);
const DECIMAL = /^\d+(?:\.\d+)?$/;

/** The largest amount a numeric(12,4) column holds: 99,999,999.9999. */
export const MAX_STORABLE: Money = 10n ** 12n - 1n;

/**
 * Reads an amount the gateway validated (a normalised, non-negative decimal with at most 4
 * places). An amount no column can hold is a 422 on its field rather than a database error.
 */
export function parseMoney(text: string, loc: (string | number)[]): Money {
  const trimmed = text.trim();
  const [whole = '', fraction = ''] = trimmed.split('.');
  if (!DECIMAL.test(trimmed) || fraction.replace(/0+$/, '').length > PLACES) {
    throw validationError([issue.decimalParsing(loc, text)]);
  }
  const amount = BigInt(whole) * SCALE + BigInt(fraction.slice(0, PLACES).padEnd(PLACES, '0'));
  if (amount > MAX_STORABLE) throw tooLarge(loc, text);
  return amount;
}

/** "12.5000": the form every answer shows money in, like PostgreSQL's numeric(12,4) text. */
export function formatMoney(amount: Money): string {
  const sign = amount < 0n ? '-' : '';
  const absolute = amount < 0n ? -amount : amount;
  return `${sign}${absolute / SCALE}.${(absolute % SCALE).toString().padStart(PLACES, '0')}`;
}

/** Reads numeric text from the database ("12.5000", "0"). */
export const moneyFromDb = (text: string | null): Money => (text === null ? 0n : parseMoney(text, []));

export function tooLarge(loc: (string | number)[], input: unknown) {
  return validationError([
    {
      type: 'less_than_equal',
      loc,
      msg: `Input should be less than or equal to ${formatMoney(MAX_STORABLE)}`,
      input,
      ctx: { le: formatMoney(MAX_STORABLE) },
    },
  ]);
}
