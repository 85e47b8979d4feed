import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FIELDS } from './fields.js';
import { PLANS, PLAN_IDS, PRICE_LIST, getPlan, isPlanId } from './plans.js';
import { backticked, lineContaining, parseTables } from './testing/spec-markdown.js';

const SPEC = readFileSync(
  new URL('../../../docs/spec/point-data-catalog-and-pricing.md', import.meta.url),
  'utf8',
);
const TABLES = parseTables(SPEC);
const tableAfter = (lead: string) => {
  const table = TABLES.find((t) => t.lead.startsWith(lead));
  if (!table) throw new Error(`no spec table after "${lead}"`);
  return table;
};

describe('GET /v1/meta/plans body', () => {
  it('has the top-level and credits keys of the spec, in its order', () => {
    const body = lineContaining(SPEC, 'Top-level keys:');
    const [credits, plans, ...creditKeys] = backticked(body);
    expect(Object.keys(PRICE_LIST)).toEqual([credits, plans]);
    expect(creditKeys[0]).toBe('credits');
    expect(Object.keys(PRICE_LIST.credits)).toEqual(creditKeys.slice(1));
    expect(PRICE_LIST.credits.overage_rate_usd_per_1k).toBeNull();
    expect(typeof PRICE_LIST.credits.batch_note).toBe('string');
    expect(typeof PRICE_LIST.credits.parcel_field_group_note).toBe('string');
  });

  it('lists every cost of the Costs table', () => {
    const table = tableAfter('Costs (credits)');
    const expected = Object.fromEntries(
      table.rows.map(([key, value]) => [key, value.startsWith('null') ? null : Number(value)]),
    );
    expect(PRICE_LIST.credits.costs).toEqual(expected);
    expect(Object.keys(PRICE_LIST.credits.costs)).toEqual(Object.keys(expected));
    expect(PRICE_LIST.credits.costs.resolve).toBeNull();
  });

  it('lists the plans of the Plans table, in its order', () => {
    const table = tableAfter('Plans:');
    const expected = table.rows.map((row) => {
      const cells = Object.fromEntries(table.header.map((column, i) => [column, row[i]]));
      return {
        id: cells.id,
        name: cells.name,
        credits_included: Number(cells.credits_included),
        field_requests_included: Number(cells.field_requests_included),
        field_requests_signup_grant: Number(cells.field_requests_signup_grant),
        // Plan record: "null on every plan"; the Plans table has no column for it.
        overage_rate_usd_per_1k: null,
        price_usd_month: Number(cells.price_usd_month),
        resolve_credits: Number(cells.resolve_credits),
        resolve_enabled: cells.resolve_enabled === 'true',
        rpm: Number(cells.rpm),
      };
    });
    expect(PRICE_LIST.plans).toEqual(expected);
    expect([...PLAN_IDS]).toEqual(expected.map((plan) => plan.id));
  });

  it('gives every plan exactly the fields of the Plan record table, in its order', () => {
    const table = TABLES.find((t) => t.heading === 'Plan record (in the price list)')!;
    const fields = table.rows.map(([field]) => field);
    for (const plan of PLANS) expect(Object.keys(plan)).toEqual(fields);
  });

  it('prices the parcel group per plan as the spec states (= resolve_credits)', () => {
    const line = lineContaining(SPEC, 'Parcel-group price per location by plan');
    const expected = Object.fromEntries(
      [...line.matchAll(/([a-z]+) (\d+)/g)].map(([, plan, credits]) => [plan, Number(credits)]),
    );
    expect(PRICE_LIST.credits.parcel_field_group_credits_by_plan).toEqual(expected);
    expect(Object.keys(PRICE_LIST.credits.parcel_field_group_credits_by_plan)).toEqual(Object.keys(expected));
    for (const plan of PLANS) {
      expect(PRICE_LIST.credits.parcel_field_group_credits_by_plan[plan.id]).toBe(plan.resolve_credits);
    }
  });

  it('names every parcel_record member in parcel_field_group, sorted', () => {
    const members = FIELDS.filter((f) => f.billing.metered_group === 'parcel_record').map((f) => f.name);
    expect(members).toHaveLength(19);
    expect(PRICE_LIST.credits.parcel_field_group).toEqual([...members].sort());
  });

  it('serialises to JSON unchanged', () => {
    expect(JSON.parse(JSON.stringify(PRICE_LIST))).toEqual(PRICE_LIST);
  });
});

describe('getPlan', () => {
  it('finds a plan by id', () => {
    expect(getPlan('scale')).toMatchObject({ id: 'scale', name: 'Scale', resolve_credits: 150, rpm: 600 });
    expect(getPlan('enterprise')).toBeUndefined();
    expect(isPlanId('market')).toBe(true);
    expect(isPlanId('Market')).toBe(false);
  });
});
