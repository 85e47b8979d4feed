import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@landscreen/rpc';
import { DATABASE_MODES, entitleTenant, loadMarket, startTestStack, type TestStack } from '@landscreen/testing';
import { getPdf, pdfText } from '../support/pdf.js';

// The times a user reads back come from the stack's injected clock (docs/decisions.md, "Which
// clock"), not from the machine's or the database's: a card's updated_at after a note or a move,
// the "Report generated" line of a site report, and the mailbox's sent_at.
const ACME = { authorization: 'Bearer dev:ann@acme.test', 'x-tenant': 'acme' };
const START = new Date('2026-01-02T03:04:05.000Z');
const MINUTE = 60_000;

describe.each(DATABASE_MODES)('the injected clock, over REST, on %s', (mode) => {
  const clock = new ManualClock(START);
  let app: TestStack;
  let itemId: string;
  let propertyId: string;

  beforeAll(async () => {
    app = await startTestStack(mode, { clock });
    expect((await app.get('/v1/me', { headers: ACME })).status).toBe(200);
    await loadMarket(app.stack.database.db, 'clock-tx', [
      { geometry: { type: 'Point', coordinates: [-97.5, 30.1] }, properties: { parcel_key: 'c-1', apn: 'C-001', acres: 40 } },
    ]);
    await entitleTenant(app.stack.database.db, 'acme', 'clock-tx');
    const added = await app.post('/v1/pipeline', { market: 'clock-tx', parcel_key: 'c-1' }, { headers: ACME });
    expect(added.status).toBe(202);
    itemId = added.body.id;
    propertyId = added.body.property_id;
  });
  afterAll(() => app?.close());

  it('stamps a card\'s note and its move with the clock\'s time', async () => {
    clock.advance(5 * MINUTE);
    const noted = await app.patch(`/v1/pipeline/${itemId}`, { notes: 'call the owner' }, { headers: ACME });
    expect(noted.status).toBe(200);
    expect(noted.body.updated_at).toBe('2026-01-02T03:09:05.000Z');

    clock.advance(7 * MINUTE);
    const moved = await app.patch(`/v1/pipeline/${itemId}`, { stage: 'contacted' }, { headers: ACME });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ stage: 'contacted', updated_at: '2026-01-02T03:16:05.000Z' });
  });

  it('prints the clock\'s time as the site report\'s generated time', async () => {
    clock.advance(60 * MINUTE);
    const pdf = await getPdf(app, `/v1/properties/${propertyId}/pdf`, ACME);
    expect(pdf.status).toBe(200);
    expect((await pdfText(pdf.bytes)).replace(/\s+/g, ' ')).toContain('2026-01-02 04:16 UTC');
  });

  it('stamps the mailbox\'s sign-in mail with the clock\'s time', async () => {
    clock.advance(MINUTE);
    expect((await app.post('/v1/auth/request-link', { email: 'ann@acme.test', tenant: 'acme' })).status).toBe(200);
    const auth = app.stack.modules.find((module) => module.name === 'auth') as unknown as { mailerIdle(): Promise<void> };
    await auth.mailerIdle();
    const mails = readFileSync(path.join(app.config.dataDir, 'mailbox.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    expect(mails.at(-1)).toMatchObject({ to: 'ann@acme.test', sent_at: '2026-01-02T04:17:05.000Z' });
  });
});
