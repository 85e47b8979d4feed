import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createServiceToken, createTenant, setMembership, authDb } from '@landscreen/auth-service';
import { ManualClock } from '@landscreen/rpc';
import { DATABASE_MODES, startTestStack, type TestStack } from '@landscreen/testing';
import { startSmtpSink, tokenOf } from '../support/smtp-sink.js';

const MINUTE = 60_000;
const LEGACY = 'legacy-shared-secret-for-tests';
const bearer = (token: string, tenant?: string) => ({ authorization: `Bearer ${token}`, ...(tenant && { 'x-tenant': tenant }) });

describe.each(DATABASE_MODES)('sign-in, sessions and tenants on %s', (mode) => {
  let app: TestStack;
  let smtp: Awaited<ReturnType<typeof startSmtpSink>>;
  const clock = new ManualClock(new Date('2026-11-22T09:00:00Z'));
  /** Starts a fresh attempt-limit window so tests do not count each other's attempts. */
  const newWindow = () => clock.advance(16 * MINUTE);

  /** Waits until mail for earlier requests has gone out, so a test reads its own link. */
  const mailSettled = () => (app.stack.modules.find((module) => module.name === 'auth') as unknown as { mailerIdle(): Promise<void> }).mailerIdle();

  async function signIn(email: string, tenant?: string) {
    await mailSettled();
    const before = smtp.received.length;
    const response = await app.post('/v1/auth/request-link', { email, ...(tenant && { tenant }) });
    expect(response.status).toBe(200);
    return tokenOf(await smtp.waitForMail(email, before));
  }

  beforeAll(async () => {
    smtp = await startSmtpSink();
    app = await startTestStack(mode, {
      clock,
      config: {
        smtpUrl: smtp.url,
        publicUrl: 'https://app.landscreen.test',
        legacySharedSecret: LEGACY,
        // Low limits keep the limit tests short; every other test stays within one window's worth.
        authLimits: { linkPerEmail: 5, linkPerAddress: 12, verifyPerAddress: 25 },
      },
    });
    const db = app.stack.database.db;
    await createTenant(authDb(db), 'acme', 'Acme Land');
    await createTenant(authDb(db), 'globex', 'Globex Energy');
    await setMembership(authDb(db), 'acme', 'ann@acme.test', 'analyst');
    await setMembership(authDb(db), 'acme', 'multi@acme.test', 'admin');
    await setMembership(authDb(db), 'globex', 'multi@acme.test', 'viewer');
  });
  afterAll(async () => {
    await app?.close();
    await smtp?.close();
  });

  it('mails a member a link to <PUBLIC_URL>/auth/verify that opens a session', async () => {
    const response = await app.post('/v1/auth/request-link', { email: 'Ann@Acme.test' });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: 'sent' });
    const mail = await smtp.waitForMail('ann@acme.test');
    expect(mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain('https://app.landscreen.test/auth/verify?token=');

    const verified = await app.post('/v1/auth/verify', { token: tokenOf(mail) });
    expect(verified.status).toBe(200);
    expect(verified.body).toEqual({
      session: { token: expect.any(String), expires_at: new Date(clock.now().getTime() + 30 * 86_400_000).toISOString() },
      identity: { id: expect.any(String), email: 'ann@acme.test' },
      tenant: { slug: 'acme', name: 'Acme Land' },
      role: 'analyst',
    });
    const me = await app.get('/v1/me', { headers: bearer(verified.body.session.token) });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ tenant: { slug: 'acme', name: 'Acme Land' }, identity: verified.body.identity, role: 'analyst' });
  });

  it('stores links and sessions only as digests', async () => {
    newWindow();
    const token = await signIn('ann@acme.test');
    const session = (await app.post('/v1/auth/verify', { token })).body.session.token;
    const db = app.stack.database.db;
    const links = await sql<{ token_digest: Buffer }>`select token_digest from auth.magic_links`.execute(db);
    const sessions = await sql<{ token_digest: Buffer }>`select token_digest from auth.sessions`.execute(db);
    const stored = [...links.rows, ...sessions.rows].map((row) => Buffer.from(row.token_digest).toString('utf8'));
    expect(stored.some((value) => value.includes(token) || value.includes(session))).toBe(false);
    expect(links.rows.every((row) => row.token_digest.length === 32)).toBe(true);
  });

  it('a link works once', async () => {
    newWindow();
    const token = await signIn('ann@acme.test');
    expect((await app.post('/v1/auth/verify', { token })).status).toBe(200);
    const again = await app.post('/v1/auth/verify', { token });
    expect(again.status).toBe(401);
    expect(again.body).toEqual({ detail: expect.any(String), code: 'invalid_link' });
  });

  it('a link expires after 15 minutes, and a new link does not extend an old one', async () => {
    newWindow();
    const first = await signIn('ann@acme.test');
    clock.advance(10 * MINUTE);
    const second = await signIn('ann@acme.test');
    clock.advance(5 * MINUTE + 1000);
    expect((await app.post('/v1/auth/verify', { token: first })).body.code).toBe('invalid_link');
    expect((await app.post('/v1/auth/verify', { token: second })).status).toBe(200);

    const third = await signIn('ann@acme.test');
    clock.advance(15 * MINUTE + 1000);
    expect((await app.post('/v1/auth/verify', { token: third })).status).toBe(401);
  });

  it('answers unknown emails exactly as known ones, and mails them nothing', async () => {
    newWindow();
    const mailsBefore = smtp.received.length;
    const known = await app.post('/v1/auth/request-link', { email: 'ann@acme.test' });
    const unknown = await app.post('/v1/auth/request-link', { email: 'nobody@acme.test' });
    const wrongTenant = await app.post('/v1/auth/request-link', { email: 'ann@acme.test', tenant: 'globex' });
    const comparable = (response: typeof known) => ({
      status: response.status,
      body: response.body,
      headers: [...response.headers.entries()].filter(([name]) => !['date', 'x-request-id'].includes(name)),
    });
    expect(comparable(unknown)).toEqual(comparable(known));
    expect(comparable(wrongTenant)).toEqual(comparable(known));
    await smtp.waitForMail('ann@acme.test', mailsBefore);
    await mailSettled(); // every mail these requests caused has been handed to the relay
    expect(smtp.received.slice(mailsBefore).map((mail) => mail.to)).toEqual([['ann@acme.test']]);
  });

  it('answers a known email without waiting for its mail: a relay that holds every message delays no answer', async () => {
    newWindow();
    await mailSettled();
    const mailsBefore = smtp.received.length;
    // Were the link mailed inside the request, a known email's answer would wait for the relay, and
    // an unknown one's would not: a difference in time that tells who is a member. Held, the relay
    // answers nothing until released, so these answers show that none waits for it (a timing
    // comparison of the two, as an attacker would make, belongs in a benchmark, not on a shared machine).
    const release = smtp.holdReplies();
    try {
      for (const email of ['ann@acme.test', 'nobody@acme.test']) expect((await app.post('/v1/auth/request-link', { email })).status).toBe(200);
      await smtp.waitForMail('ann@acme.test', mailsBefore);
    } finally {
      release();
    }
    await mailSettled();
    expect(smtp.received.slice(mailsBefore).map((mail) => mail.to)).toEqual([['ann@acme.test']]);
  });

  it('limits attempts per email and per address with 429 and Retry-After, for unknown emails too', async () => {
    for (const email of ['ann@acme.test', 'ghost@acme.test']) {
      newWindow();
      for (let attempt = 0; attempt < 5; attempt++) expect((await app.post('/v1/auth/request-link', { email })).status).toBe(200);
      const limited = await app.post('/v1/auth/request-link', { email });
      expect(limited.status).toBe(429);
      expect(limited.body.code).toBe('rate_limited');
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    newWindow();
    const { linkPerAddress, verifyPerAddress } = app.config.authLimits;
    for (let attempt = 0; attempt < linkPerAddress; attempt++) {
      expect((await app.post('/v1/auth/request-link', { email: `someone${attempt}@else.test` })).status).toBe(200);
    }
    expect((await app.post('/v1/auth/request-link', { email: 'fresh@else.test' })).status).toBe(429);

    newWindow();
    let status = 0;
    for (let attempt = 0; attempt <= verifyPerAddress && status !== 429; attempt++) {
      status = (await app.post('/v1/auth/verify', { token: `guess-${attempt}` })).status;
    }
    expect(status).toBe(429);
    newWindow();
  });

  it('concurrent verifies of one link open exactly one session', async () => {
    newWindow();
    const token = await signIn('ann@acme.test');
    const before = await sql<{ count: number }>`select count(*)::int as count from auth.sessions`.execute(app.stack.database.db);
    const answers = await Promise.all(Array.from({ length: 20 }, () => app.post('/v1/auth/verify', { token })));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 401)).toHaveLength(19);
    const after = await sql<{ count: number }>`select count(*)::int as count from auth.sessions`.execute(app.stack.database.db);
    expect(after.rows[0]!.count - before.rows[0]!.count).toBe(1);
  });

  it('answers 401 to missing, malformed, unknown, revoked and expired credentials', async () => {
    expect((await app.get('/v1/me')).body.code).toBe('unauthenticated');
    expect((await app.get('/v1/me', { headers: { authorization: 'Basic abc' } })).status).toBe(401);
    expect((await app.get('/v1/me', { headers: bearer('not-a-session') })).body.code).toBe('invalid_token');

    newWindow();
    const session = (await app.post('/v1/auth/verify', { token: await signIn('ann@acme.test') })).body.session.token;
    expect((await app.get('/v1/me', { headers: bearer(session) })).status).toBe(200);
    const logout = await app.post('/v1/auth/logout', undefined, { headers: bearer(session) });
    expect(logout.status).toBe(200);
    expect((await app.get('/v1/me', { headers: bearer(session) })).status).toBe(401);
    expect((await app.post('/v1/auth/logout', undefined, { headers: bearer(session) })).status).toBe(401);

    const later = (await app.post('/v1/auth/verify', { token: await signIn('ann@acme.test') })).body.session.token;
    clock.advance(30 * 86_400_000 + 1000);
    expect((await app.get('/v1/me', { headers: bearer(later) })).body.code).toBe('invalid_token');
  });

  it('picks the tenant with X-Tenant when the identity belongs to several (D3)', async () => {
    newWindow();
    const verified = (await app.post('/v1/auth/verify', { token: await signIn('multi@acme.test', 'globex') })).body;
    expect(verified.tenant).toEqual({ slug: 'globex', name: 'Globex Energy' });
    expect(verified.role).toBe('viewer');
    const session = verified.session.token;
    const noHeader = await app.get('/v1/me', { headers: bearer(session) });
    expect(noHeader.status).toBe(400);
    expect(noHeader.body.code).toBe('tenant_required');
    expect((await app.get('/v1/me', { headers: bearer(session, 'acme') })).body.role).toBe('admin');
    expect((await app.get('/v1/me', { headers: bearer(session, 'globex') })).body.role).toBe('viewer');
    const outsider = await app.get('/v1/me', { headers: bearer(session, 'initech') });
    expect(outsider.status).toBe(403);
    expect(outsider.body.code).toBe('not_member');
  });

  it('logs out a session of several tenants without X-Tenant: the session is one, whichever tenant it acts in', async () => {
    newWindow();
    const session = (await app.post('/v1/auth/verify', { token: await signIn('multi@acme.test', 'acme') })).body.session.token;
    expect((await app.get('/v1/me', { headers: bearer(session) })).body.code).toBe('tenant_required');
    const logout = await app.post('/v1/auth/logout', undefined, { headers: bearer(session) });
    expect(logout.status).toBe(200);
    expect(logout.body).toEqual({ status: 'logged_out', revoked: true });
    for (const tenant of ['acme', 'globex']) {
      const after = await app.get('/v1/me', { headers: bearer(session, tenant) });
      expect(after.status).toBe(401);
      expect(after.body.code).toBe('invalid_token');
    }
  });

  it('dev sessions act as the email in the X-Tenant tenant, created on first use (D7)', async () => {
    const me = await app.get('/v1/me', { headers: bearer('dev:dana@dev.test', 'dev-co') });
    expect(me.body).toEqual({ tenant: { slug: 'dev-co', name: 'dev-co' }, identity: { id: expect.any(String), email: 'dana@dev.test' }, role: 'admin' });
    expect((await app.get('/v1/me', { headers: bearer('dev:dana@dev.test:viewer', 'dev-co') })).body.role).toBe('viewer');
    expect((await app.get('/v1/me', { headers: bearer('dev:dana@dev.test:owner', 'dev-co') })).status).toBe(401);
    expect((await app.get('/v1/me', { headers: bearer('dev:dana@dev.test') })).body.code).toBe('tenant_required');
    const logout = await app.post('/v1/auth/logout', undefined, { headers: bearer('dev:dana@dev.test', 'dev-co') });
    expect(logout.status).toBe(200);
    expect((await app.get('/v1/me', { headers: bearer('dev:dana@dev.test', 'dev-co') })).status).toBe(200);
  });

  it('the legacy shared secret acts as a worker of the X-Tenant tenant; logout is a no-op (D7)', async () => {
    const me = await app.get('/v1/me', { headers: bearer(LEGACY, 'acme') });
    expect(me.status).toBe(200);
    expect(me.body).toEqual({ tenant: { slug: 'acme', name: 'Acme Land' }, identity: { id: null, email: null }, role: 'worker' });
    expect((await app.post('/v1/auth/logout', undefined, { headers: bearer(LEGACY, 'acme') })).status).toBe(200);
    expect((await app.get('/v1/me', { headers: bearer(LEGACY, 'acme') })).status).toBe(200);
    expect((await app.get('/v1/me', { headers: bearer(LEGACY, 'no-such-tenant') })).status).toBe(403);
    expect((await app.get('/v1/me', { headers: bearer(`${LEGACY}x`, 'acme') })).status).toBe(401);
  });

  it('service tokens open utility findings and nothing else (D8)', async () => {
    const { id, secret } = await createServiceToken(authDb(app.stack.database.db), 'acme', 'grid-bot');
    const query = { vintage_id: 'v1', parcel_key: 'p1' };
    const allowed = await app.get('/v1/internal/utility-findings', { query, headers: { ...bearer(secret), 'x-service-token-id': id } });
    expect([401, 403]).not.toContain(allowed.status);
    const wrong = await app.get('/v1/internal/utility-findings', { query, headers: { ...bearer(`${secret}x`), 'x-service-token-id': id } });
    expect(wrong.status).toBe(401);
    const elsewhere = await app.get('/v1/me', { headers: { ...bearer(secret), 'x-service-token-id': id } });
    expect(elsewhere.status).toBe(403);
  });
});

describe('with AUTH_DEV off', () => {
  let app: TestStack;
  beforeAll(async () => {
    app = await startTestStack('pglite', { config: { authDev: false } });
  });
  afterAll(() => app?.close());

  it('refuses dev tokens', async () => {
    const response = await app.get('/v1/me', { headers: bearer('dev:dana@dev.test', 'dev-co') });
    expect(response.status).toBe(401);
    expect(response.body.code).toBe('invalid_token');
  });
});
