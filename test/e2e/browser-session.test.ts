// D40: the console's session over HTTP. A sign-in link traded at POST /v1/auth/session sets the
// session as an HttpOnly, SameSite=Strict cookie (the answer never shows the token) and a readable
// CSRF cookie; the cookie authenticates reads, a write needs the CSRF header as well; logging out
// revokes the session and clears both cookies; bearer tokens work as before. The console is
// served at `/` and at the link's `/auth/verify`. On PGlite and PostgreSQL.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_MODES, startTestStack, type TestStack } from '@landscreen/testing';
import { expectStatus, session } from '../support/diligence.js';
import { mailedLink } from '../support/mailbox.js';

const EMAIL = 'bea@acme-cookie.test';
const TENANT = 'acme-cookie';

/** `name=value` of each Set-Cookie header, with its attributes. */
function cookiesOf(response: Response): Map<string, { value: string; attributes: string[] }> {
  return new Map(
    response.headers.getSetCookie().map((line) => {
      const [pair, ...attributes] = line.split(';').map((part) => part.trim());
      const [name, ...value] = pair!.split('=');
      return [name!, { value: value.join('='), attributes: attributes.map((a) => a.toLowerCase()) }];
    }),
  );
}

describe.each(DATABASE_MODES)('the console\'s browser session on %s', (mode) => {
  let app: TestStack;
  let cookie: string;
  let csrf: string;

  beforeAll(async () => {
    app = await startTestStack(mode);
    expectStatus(await app.get('/v1/me', { headers: session(EMAIL, TENANT, 'analyst') }), 200);
  });
  afterAll(() => app?.close());

  it('serves the console at / and at the sign-in link\'s /auth/verify', async () => {
    for (const path of ['/', '/auth/verify?token=x']) {
      const page = await app.get(path);
      expect(page.status).toBe(200);
      expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('<script type="module" src="/console/app.js"></script>');
    }
    const script = await app.get('/console/app.js');
    expect([script.status, script.headers.get('content-type')]).toEqual([200, 'text/javascript; charset=utf-8']);
    const again = await app.get('/console/app.js', { headers: { 'if-none-match': script.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await app.get('/console/nothing.js')).status).toBe(404);
  });

  it('trades a sign-in link for an HttpOnly SameSite=Strict cookie and a CSRF token, never answering the session token', async () => {
    expectStatus(await app.post('/v1/auth/request-link', { email: EMAIL, tenant: TENANT }), 200);
    const token = new URL(await mailedLink(app.config.dataDir, EMAIL)).searchParams.get('token')!;
    const response = await fetch(new URL('/v1/auth/session', app.url), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token }) });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { csrf_token: string };
    expect(body).toMatchObject({ identity: { email: EMAIL }, tenant: { slug: TENANT }, role: 'analyst' });
    expect(JSON.stringify(body)).not.toContain('"token"');
    const cookies = cookiesOf(response);
    const sessionCookie = cookies.get('landscreen_session')!;
    expect(sessionCookie.attributes).toEqual(expect.arrayContaining(['httponly', 'samesite=strict', 'path=/']));
    const csrfCookie = cookies.get('landscreen_csrf')!;
    expect(csrfCookie.attributes).not.toContain('httponly');
    expect(csrfCookie.value).toBe(body.csrf_token);
    cookie = `landscreen_session=${sessionCookie.value}; landscreen_csrf=${csrfCookie.value}`;
    csrf = body.csrf_token;
    // The link was single use (D5).
    const reused = await app.post('/v1/auth/session', { token });
    expect([reused.status, reused.body.code]).toEqual([401, 'invalid_link']);
  });

  it('reads with the cookie alone, and writes only with the CSRF header', async () => {
    const me = await app.get('/v1/me', { headers: { cookie } });
    expect([me.status, me.body.identity.email]).toEqual([200, EMAIL]);
    const box = { name: 'cookie box', spec: { markets: ['nowhere-tx'], must: [], preferred: [], verdict_cutoffs: { pursue: 70, monitor: 40 } } };
    const forged = await app.post('/v1/buyboxes', box, { headers: { cookie } });
    expect([forged.status, forged.body.code]).toEqual([403, 'csrf_failed']);
    const wrong = await app.post('/v1/buyboxes', box, { headers: { cookie, 'x-csrf-token': csrf.slice(1) } });
    expect(wrong.status).toBe(403);
    // With the header the write is judged on its merits (here: the market does not exist).
    const honest = await app.post('/v1/buyboxes', box, { headers: { cookie, 'x-csrf-token': csrf } });
    expect(honest.body.code).not.toBe('csrf_failed');
    expect(honest.status).not.toBe(403);
  });

  it('logs out: the session is revoked and both cookies are cleared; bearer tokens are untouched', async () => {
    const response = await fetch(new URL('/v1/auth/logout', app.url), { method: 'POST', headers: { cookie, 'x-csrf-token': csrf } });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'logged_out', revoked: true });
    const cleared = cookiesOf(response);
    expect(cleared.get('landscreen_session')?.value).toBe('');
    expect(cleared.get('landscreen_csrf')?.value).toBe('');
    expect((await app.get('/v1/me', { headers: { cookie } })).status).toBe(401);
    expect((await app.get('/v1/me', { headers: session(EMAIL, TENANT) })).status).toBe(200);
  });
});
