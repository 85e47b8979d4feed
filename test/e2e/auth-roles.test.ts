import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTenant, setMembership, authDb } from '@landscreen/auth-service';
import { runCommand } from '@landscreen/cli';
import { startEmbeddedStack, type EmbeddedStack } from '@landscreen/runtime';
import { loadConfig } from '@landscreen/config';
import { openDatabase, type DatabaseHandle } from '@landscreen/db';
import { connectNatsBus, type EventBus } from '@landscreen/events';
import { createLogger } from '@landscreen/rpc';
import { startPrivateNats } from './relay-harness.js';
import { createTestPostgres, DATABASE_MODES, httpClient, startTestStack, type HttpClient, type TestDatabase, type TestStack } from '@landscreen/testing';

const logger = createLogger('silent');
const bearer = (token: string, tenant?: string) => ({ authorization: `Bearer ${token}`, ...(tenant && { 'x-tenant': tenant }) });

interface Replica extends HttpClient {
  stack: EmbeddedStack;
  dataDir: string;
}

/** Signs in through the embedded mailbox (DATA_DIR/mailbox.jsonl): request a link, read it, verify it. */
async function signIn(replica: Replica, email: string, tenant: string): Promise<string> {
  expect((await replica.post('/v1/auth/request-link', { email, tenant })).status).toBe(200);
  const auth = replica.stack.modules.find((module) => module.name === 'auth') as unknown as { mailerIdle(): Promise<void> };
  await auth.mailerIdle();
  const lines = readFileSync(path.join(replica.dataDir, 'mailbox.jsonl'), 'utf8').trim().split('\n');
  const mail = lines.map((line) => JSON.parse(line) as { to: string; text: string }).filter((message) => message.to === email).at(-1)!;
  const token = /verify\?token=([\w-]+)/.exec(mail.text)![1]!;
  const verified = await replica.post('/v1/auth/verify', { token });
  expect(verified.status).toBe(200);
  return verified.body.session.token;
}

/** What the operator's `landscreen member add` does in a process of its own: its own pool, its own bus connection. */
async function memberAdd(database: DatabaseHandle, bus: EventBus, tenant: string, email: string, role: string) {
  const out: string[] = [];
  const config = loadConfig({}, { logLevel: 'silent' });
  const code = await runCommand(['member', 'add', '--tenant', tenant, '--email', email, '--role', role], { config, logger, database, bus }, (line) => out.push(line));
  expect({ code, out }).toEqual({ code: 0, out: [`${email} is ${role} of ${tenant}`] });
}

const roleOn = async (replica: HttpClient, token: string) => {
  const me = await replica.get('/v1/me', { headers: bearer(token) });
  return me.status === 200 ? me.body.role : me.status;
};

describe.each(DATABASE_MODES)('D7 dev sessions and role changes on %s', (mode) => {
  let app: TestStack;
  beforeAll(async () => {
    app = await startTestStack(mode);
  });
  afterAll(() => app?.close());

  it("the membership a dev session creates on first use gets the token's role, admin when it names none", async () => {
    expect((await app.get('/v1/me', { headers: bearer('dev:vic@d7.test:viewer', 'd7') })).body.role).toBe('viewer');
    // Later tokens that name no role act with the membership's role: what the first one created.
    expect((await app.get('/v1/me', { headers: bearer('dev:vic@d7.test', 'd7') })).body.role).toBe('viewer');
    expect((await app.get('/v1/me', { headers: bearer('dev:ada@d7.test', 'd7') })).body.role).toBe('admin');
    // A token naming a role still acts with it, and leaves the membership as it was.
    expect((await app.get('/v1/me', { headers: bearer('dev:ada@d7.test:analyst', 'd7') })).body.role).toBe('analyst');
    const { rows } = await sql<{ email: string; role: string }>`
      select i.email, m.role from auth.memberships m join auth.identities i on i.id = m.identity_id join auth.tenants t on t.id = m.tenant_id
      where t.slug = 'd7' order by i.email`.execute(app.stack.database.db);
    expect(rows).toEqual([
      { email: 'ada@d7.test', role: 'admin' },
      { email: 'vic@d7.test', role: 'viewer' },
    ]);
  });

  it('a role changed by `landscreen member add` (through the running server) bites on the next request', async () => {
    const db = app.stack.database.db;
    await createTenant(authDb(db), 'demote', 'Demote Co');
    await setMembership(authDb(db), 'demote', 'dee@demote.test', 'admin');
    const replica: Replica = { ...httpClient(app.url), stack: app.stack, dataDir: app.config.dataDir };
    const token = await signIn(replica, 'dee@demote.test', 'demote');
    expect(await roleOn(app, token)).toBe('admin');
    expect((await app.get('/v1/internal/diligence/jobs', { headers: bearer(token) })).status).toBe(200);
    // What the control socket runs: the command in the server's process, on the server's bus.
    await memberAdd(app.stack.database, app.stack.bus, 'demote', 'dee@demote.test', 'viewer');
    expect(await roleOn(app, token)).toBe('viewer');
    expect((await app.get('/v1/internal/diligence/jobs', { headers: bearer(token) })).status).toBe(403);
  });
});

describe('two auth replicas on one PostgreSQL database and one NATS', () => {
  // A nats-server of its own: the stacks declare the product's streams and durable consumers, which
  // another test run on the machine's shared server would share.
  let natsUrl: string;
  let database: TestDatabase;
  const cleanups: (() => Promise<void>)[] = [];
  let a: Replica;
  let b: Replica;
  /** The operator's process: a pool and a NATS connection of its own. */
  let cli: { database: DatabaseHandle; bus: EventBus };

  async function startReplica(name: string): Promise<Replica> {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `landscreen-${name}-`));
    const handle = await openDatabase({ databaseUrl: database.url, maxConnections: 5 });
    const bus = await connectNatsBus(natsUrl, { name: `auth-roles-${name}` });
    const config = loadConfig({}, { port: 0, host: '127.0.0.1', dataDir, logLevel: 'silent', authDev: false, databaseUrl: database.url, natsUrl });
    const stack = await startEmbeddedStack({ config, logger, database: handle, bus });
    cleanups.unshift(async () => {
      await stack.close();
      await bus.close();
      await handle.close();
      rmSync(dataDir, { recursive: true, force: true });
    });
    return { ...httpClient(stack.url), stack, dataDir };
  }

  beforeAll(async () => {
    const nats = await startPrivateNats();
    natsUrl = nats.url;
    cleanups.push(() => nats.close());
    database = await createTestPostgres();
    cleanups.push(() => database.close());
    a = await startReplica('a');
    b = await startReplica('b');
    const cliDatabase = await openDatabase({ databaseUrl: database.url, maxConnections: 2 });
    const cliBus = await connectNatsBus(natsUrl, { name: 'auth-roles-cli' });
    cleanups.unshift(async () => {
      await cliBus.close();
      await cliDatabase.close();
    });
    cli = { database: cliDatabase, bus: cliBus };
    await createTenant(authDb(database.db), 'replicas', 'Replicas Inc');
  });
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  it('a demotion through the CLI bites on the next request on every replica', async () => {
    await setMembership(authDb(database.db), 'replicas', 'rae@replicas.test', 'admin');
    const token = await signIn(a, 'rae@replicas.test', 'replicas');
    // Resolved, and cached, as admin on both replicas.
    expect([await roleOn(a, token), await roleOn(b, token)]).toEqual(['admin', 'admin']);
    await memberAdd(cli.database, cli.bus, 'replicas', 'rae@replicas.test', 'viewer');
    expect(await roleOn(b, token)).toBe('viewer');
    expect(await roleOn(a, token)).toBe('viewer');
    // And back: a promotion bites as fast.
    await memberAdd(cli.database, cli.bus, 'replicas', 'rae@replicas.test', 'analyst');
    expect([await roleOn(b, token), await roleOn(a, token)]).toEqual(['analyst', 'analyst']);
  });

  it('a logout on one replica is refused on the next request to the other', async () => {
    await setMembership(authDb(database.db), 'replicas', 'lou@replicas.test', 'analyst');
    const token = await signIn(a, 'lou@replicas.test', 'replicas');
    const other = await signIn(b, 'lou@replicas.test', 'replicas');
    expect([await roleOn(a, token), await roleOn(b, token), await roleOn(b, other)]).toEqual(['analyst', 'analyst', 'analyst']);
    expect((await a.post('/v1/auth/logout', undefined, { headers: bearer(token) })).status).toBe(200);
    const refused = await b.get('/v1/me', { headers: bearer(token) });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('invalid_token');
    expect(await roleOn(a, token)).toBe(401);
    // Only that session: the identity's other one goes on.
    expect(await roleOn(b, other)).toBe('analyst');
  });
});
