import { issue, validationError } from '@landscreen/rpc';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The days a spend report may name (D26). The ledger is written with the service's clock, so
 * nothing before 2000 or after 2999 can be in it; bounding the day keeps day+1 a timestamp every
 * driver and engine can carry (PGlite failed on 10000-01-01) and answers a typo with a 422.
 */
export const FIRST_SPEND_DAY = '2000-01-01';
export const LAST_SPEND_DAY = '2999-12-31';

/** Midnight UTC of a YYYY-MM-DD calendar day in range (the gateway validated the form; checked again here). */
export function spendDayStart(day: string): Date {
  const loc = ['query', 'day'];
  const start = DAY.test(day) ? new Date(`${day}T00:00:00.000Z`) : undefined;
  if (!start || Number.isNaN(start.getTime()) || start.toISOString().slice(0, 10) !== day) {
    throw validationError([issue.dateParsing(loc, day)]);
  }
  // YYYY-MM-DD strings order as the days they name.
  if (day < FIRST_SPEND_DAY) {
    throw validationError([{ type: 'greater_than_equal', loc, msg: `Input should be greater than or equal to ${FIRST_SPEND_DAY}`, input: day, ctx: { ge: FIRST_SPEND_DAY } }]);
  }
  if (day > LAST_SPEND_DAY) {
    throw validationError([{ type: 'less_than_equal', loc, msg: `Input should be less than or equal to ${LAST_SPEND_DAY}`, input: day, ctx: { le: LAST_SPEND_DAY } }]);
  }
  return start;
}
