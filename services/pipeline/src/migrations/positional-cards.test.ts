import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateSchema, openDatabase, type DatabaseHandle } from '@landscreen/db';
import { migrations } from './index.js';
import * as positionalCards from './20261126T120000_positional_cards.js';

const BEFORE = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '20261126T120000_positional_cards'));

async function storedCard(database: DatabaseHandle): Promise<unknown> {
  const { rows } = await sql<{ card: string }>`select card from pipeline.items`.execute(database.db);
  return JSON.parse(rows[0]!.card);
}

describe('migration 20261126T120000_positional_cards', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openDatabase({});
    await migrateSchema(database.db, 'pipeline', BEFORE);
    await sql`insert into pipeline.properties (id, tenant_id, market_id, market, parcel_key, vintage_id, apn, address, lat, lon, acres, parcel)
              values ('00000000-0000-4000-8000-000000000001', gen_random_uuid(), gen_random_uuid(), 'demo-tx', 'demo-tx:R1', gen_random_uuid(),
                      '001-234', null, 30.25, -97.75, 12.5, '{}')`.execute(database.db);
    await sql`insert into pipeline.items (id, tenant_id, property_id, stage, position, notes, buy_box, verdict, score, created_at, updated_at)
              values ('00000000-0000-4000-8000-000000000002', gen_random_uuid(), '00000000-0000-4000-8000-000000000001', 'contacted', 0,
                      'call "Ann", then Bob', 'dc', 'PURSUE', 87.5, '2026-11-20T10:00:00.123Z', '2026-11-21T11:30:00.456Z')`.execute(database.db);
  });
  afterAll(async () => database?.close());

  it('renders the cards already stored as positional arrays, and back on the way down', async () => {
    const keyed = await storedCard(database);
    expect(keyed).toMatchObject({ id: '00000000-0000-4000-8000-000000000002', stage: 'contacted', archived: false, property: { apn: '001-234', score: 87.5 } });

    await migrateSchema(database.db, 'pipeline', migrations);
    expect(await storedCard(database)).toEqual([
      '00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', 'contacted', 'call "Ann", then Bob',
      '2026-11-20T10:00:00.123Z', '2026-11-21T11:30:00.456Z', 'demo-tx', 'demo-tx:R1', '001-234', null, 30.25, -97.75, 12.5,
      'dc', 'PURSUE', 87.5,
    ]);

    await positionalCards.down(database.db);
    expect(await storedCard(database)).toEqual(keyed);
  });
});
