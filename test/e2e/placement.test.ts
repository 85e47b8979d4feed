// Discovery placement in the distributed mode, as processes on one machine: real PostgreSQL and
// NATS JetStream, the auth, pipeline and catalog services, three discovery replicas and the
// gateway, each `landscreen serve` in a process of its own. The replicas share the markets as the
// placement table says; one is SIGKILLed and the others take its markets over; a fourth joins
// (the gateway was never told of it) and markets move to it. Throughout, every ranking, map tile
// and located parcel the gateway or a replica answers equals the first answer, or is a 503 with
// Retry-After while a market has nobody answering for it — never another answer. Every wait is on
// the placement table or a process's readiness, never on the clock.

import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createClient } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { discoveryDb } from '@landscreen/discovery-service';
import { discoveryv1 } from '@landscreen/proto';
import { callerHeaders, networkTransport, type Caller } from '@landscreen/rpc';
import { createTestPostgres, entitleTenant, httpClient, loadMarket, type HttpClient, type TestDatabase, type TestFeature } from '@landscreen/testing';
import { waitFor } from '../../packages/events/src/test-wait.js';
import { freePort, startPiece, type Piece } from '../support/pieces.js';
import { startPrivateNats, type PrivateNats } from './relay-harness.js';

const MARKETS = 20;
const PARCELS = 20;
const LEASE_SECONDS = 3;
const HEADERS = { authorization: 'Bearer dev:pat@placers.test:analyst', 'x-tenant': 'placers' };
const SPEC = (market: string) => ({
  markets: [market],
  must: [{ field: 'acres', op: '>=', value: 12 }],
  preferred: [
    { field: 'acres', op: '>=', value: 40, weight: 2 },
    { field: 'zoning', op: 'eq', value: 'industrial', weight: 1 },
  ],
  verdict_cutoffs: { pursue: 60, monitor: 30 },
});

const slugOf = (i: number) => `placed-${String(i).padStart(2, '0')}`;
const originOf = (i: number) => ({ lon: -101 + (i % 5) * 0.25, lat: 30 + Math.floor(i / 5) * 0.25 });
const SIDE = 0.002;
const STEP = 0.003;

function parcelsOf(i: number): TestFeature[] {
  const { lon, lat } = originOf(i);
  return Array.from({ length: PARCELS }, (_, j) => {
    const [x, y] = [lon + (j % 5) * STEP, lat + Math.floor(j / 5) * STEP];
    return {
      geometry: { type: 'Polygon', coordinates: [[[x, y], [x + SIDE, y], [x + SIDE, y + SIDE], [x, y + SIDE], [x, y]]] },
      properties: { parcel_key: `${slugOf(i)}-${String(j).padStart(2, '0')}`, acres: 5 + ((i * 7 + j * 13) % 60), zoning: j % 3 === 0 ? 'industrial' : 'agricultural', apn: `${i}-${j}` },
    };
  });
}

/** The z 13 tile holding the market's parcels. */
function tileOf(i: number): { z: number; x: number; y: number } {
  const { lon, lat } = originOf(i);
  const z = 13;
  const n = 2 ** z;
  const rad = ((lat + 0.006) * Math.PI) / 180;
  return { z, x: Math.floor(((lon + 0.006 + 180) / 360) * n), y: Math.floor(((1 - Math.log(Math.tan(rad) + 1 / Math.cos(rad)) / Math.PI) / 2) * n) };
}

/** A point inside each market's first parcel, one beside its last, one far from any. */
const POINTS = [
  ...Array.from({ length: MARKETS }, (_, i) => ({ lon: originOf(i).lon + SIDE / 2, lat: originOf(i).lat + SIDE / 2 })),
  ...Array.from({ length: MARKETS }, (_, i) => ({ lon: originOf(i).lon + 4 * STEP + SIDE + 0.0003, lat: originOf(i).lat + 3 * STEP + SIDE / 2 })),
  { lon: -80, lat: 40 },
];

type Answer = { status: number; body: string };

describe('discovery replicas share the markets (distributed mode, PostgreSQL and NATS)', () => {
  let database: TestDatabase;
  let nats: PrivateNats;
  let dataDir: string;
  let env: Record<string, string>;
  let gateway: HttpClient;
  let caller: Caller;
  const pieces: Piece[] = [];
  const replicas: { piece: Piece; url: string }[] = [];
  const reference = new Map<string, Answer>();
  let testFailed = false;
  const db = () => discoveryDb(database.db);

  const startReplica = async (label: string) => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const piece = startPiece(label, ['--service', 'discovery'], { ...env, DISCOVERY_PORT: String(port), DISCOVERY_CACHE_DIR: path.join(dataDir, label) }, 'service is up');
    pieces.push(piece);
    await piece.up;
    const replica = { piece, url };
    replicas.push(replica);
    return replica;
  };

  /** market slug → the advertised address of the replica holding it, for markets held by a live replica. */
  const placement = async () => {
    const rows = await db()
      .selectFrom('market_owners')
      .innerJoin('markets', 'markets.id', 'market_owners.market_id')
      .innerJoin('replicas', 'replicas.id', 'market_owners.replica_id')
      .select(['markets.slug', 'replicas.url'])
      .execute();
    return new Map(rows.map((row) => [row.slug, row.url]));
  };
  const registered = async () => (await db().selectFrom('replicas').select('url').execute()).map((row) => row.url).sort();

  /** Every market held, by exactly the replicas given, each holding at least one when `each`. */
  const heldBy = async (urls: string[], each: boolean) => {
    const held = await placement();
    if (held.size !== MARKETS) return false;
    const holders = new Set(held.values());
    if (![...holders].every((url) => urls.includes(url))) return false;
    return each ? urls.every((url) => holders.has(url)) : holders.size > 1;
  };

  const queryAnswer = async (i: number): Promise<Answer> => {
    const response = await gateway.post('/v2/discovery/query', { buy_box: `box-${i}`, limit: 10 }, { headers: HEADERS });
    return settle(response);
  };
  const tileAnswer = async (i: number): Promise<Answer> => {
    const { z, x, y } = tileOf(i);
    const response = await gateway.get(`/v1/tiles/parcels/${slugOf(i)}/${z}/${x}/${y}.mvt?buy_box=box-${i}`, { headers: HEADERS });
    return settle(response, response.headers.get('etag') ?? '');
  };
  const locateAnswer = async (url: string): Promise<Answer> => {
    const client = createClient(discoveryv1.DiscoveryService, networkTransport(url));
    try {
      const answer = await client.locateParcels({ points: POINTS, omitGeometry: true }, { headers: callerHeaders(caller) });
      return { status: 200, body: JSON.stringify(answer) };
    } catch (error) {
      return { status: 503, body: String(error) };
    }
  };
  const settle = (response: { status: number; headers: Headers; body: unknown }, text = ''): Answer => {
    if (response.status === 503) {
      // A market with nobody answering for it right now: a refusal with a retry hint, never an answer.
      expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
      expect((response.body as { code: string }).code).toMatch(/^(market_moving|unavailable)$/);
      return { status: 503, body: '' };
    }
    return { status: response.status, body: text || JSON.stringify(response.body) };
  };

  /** Every answer of a round, each retried (on a readiness wait) while it is a 503, checked against the first round's. */
  const sameAnswersEverywhere = async () => {
    const answers: [string, () => Promise<Answer>][] = [];
    for (let i = 0; i < MARKETS; i++) answers.push([`query ${i}`, () => queryAnswer(i)], [`tile ${i}`, () => tileAnswer(i)]);
    for (const { url, piece } of replicas) if (piece.child.exitCode === null && piece.child.signalCode === null) answers.push([`locate via ${url}`, () => locateAnswer(url)]);
    for (const [name, ask] of answers) {
      let answer: Answer | undefined;
      await waitFor(async () => (answer = await ask()).status !== 503, `${name} answered`);
      expect(answer!.status, name).toBe(200);
      const first = reference.get(name.startsWith('locate') ? 'locate' : name);
      if (first) expect(answer!.body, name).toBe(first.body);
      else reference.set(name.startsWith('locate') ? 'locate' : name, answer!);
    }
  };

  beforeAll(async () => {
    database = await createTestPostgres();
    nats = await startPrivateNats();
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'placement-'));
    for (let i = 0; i < MARKETS; i++) await loadMarket(database.db, slugOf(i), parcelsOf(i));
    const [auth, pipeline, catalog, gatewayPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
    const discoveryPorts = await Promise.all([freePort(), freePort(), freePort()]);
    env = {
      DATABASE_URL: database.url,
      NATS_URL: nats.url,
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      AUTH_DEV: '1',
      DATA_DIR: dataDir,
      DISCOVERY_LEASE_SECONDS: String(LEASE_SECONDS),
      AUTH_PORT: String(auth),
      PIPELINE_PORT: String(pipeline),
      CATALOG_PORT: String(catalog),
      AUTH_URL: `http://127.0.0.1:${auth}`,
      PIPELINE_URL: `http://127.0.0.1:${pipeline}`,
      CATALOG_URL: `http://127.0.0.1:${catalog}`,
      // The gateway and the peers know the first three replicas only.
      DISCOVERY_URL: discoveryPorts.map((port) => `http://127.0.0.1:${port}`).join(','),
      PORT: String(gatewayPort),
      METRICS_PORT: '',
    };
    const services = (['auth', 'pipeline', 'catalog'] as const).map((name) => startPiece(name, ['--service', name], env, 'service is up'));
    pieces.push(...services);
    for (const [index, port] of discoveryPorts.entries()) {
      const piece = startPiece(`discovery-${index + 1}`, ['--service', 'discovery'], { ...env, DISCOVERY_PORT: String(port), DISCOVERY_CACHE_DIR: path.join(dataDir, `discovery-${index + 1}`) }, 'service is up');
      pieces.push(piece);
      replicas.push({ piece, url: `http://127.0.0.1:${port}` });
    }
    const gatewayPiece = startPiece('gateway', ['--gateway'], env, 'gateway is up');
    pieces.push(gatewayPiece);
    await Promise.all(pieces.map((piece) => piece.up));
    gateway = httpClient(`http://127.0.0.1:${gatewayPort}`);

    expect((await gateway.get('/v1/me', { headers: HEADERS })).status).toBe(200);
    for (let i = 0; i < MARKETS; i++) {
      const tenant = await entitleTenant(database.db, 'placers', slugOf(i));
      caller = { tenantId: tenant.id, tenantSlug: tenant.slug, tenantName: tenant.name, identityId: '', email: '', role: 'analyst', kind: 'dev', sessionId: '' };
      const saved = await gateway.post('/v1/buyboxes', { name: `box-${i}`, spec: SPEC(slugOf(i)) }, { headers: HEADERS });
      expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    }
  });

  afterAll(async () => {
    // What each process logged as an error, when the test failed: where a wrong answer came from.
    if (testFailed) for (const piece of pieces) for (const line of piece.output().split('\n')) if (/"level":(50|60)/.test(line)) console.error(`${piece.label}: ${line}`);
    await Promise.all(pieces.map((piece) => piece.stop()));
    await nats?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('spreads the markets, keeps every answer through a SIGKILL, a new replica and a clean stop, and routes the peers too', async () => {
    onTestFailed(() => {
      testFailed = true;
    });
    const first = replicas.map((replica) => replica.url);
    // The three share the markets once each has been up a lease (the first took them all at start).
    await waitFor(() => heldBy(first, false), 'the markets spread over the three replicas');
    expect(await registered()).toEqual([...first].sort());
    await sameAnswersEverywhere();
    // Answers are rankings, not refusals.
    const ranked = JSON.parse(reference.get('query 0')!.body);
    expect(ranked.results.length).toBeGreaterThan(0);
    expect(JSON.parse(reference.get('locate')!.body).locations.filter((location: { parcel?: unknown }) => location.parcel)).toHaveLength(2 * MARKETS);

    // Ask continuously while a replica dies and another joins: each answer is the first one, or 503.
    let asking = true;
    const refusals: string[] = [];
    const prober = (async () => {
      for (let round = 0; asking; round++) {
        const i = round % MARKETS;
        for (const [name, answer] of [[`query ${i}`, await queryAnswer(i)], [`tile ${i}`, await tileAnswer(i)]] as const) {
          if (answer.status === 503) refusals.push(name);
          else expect(answer.body, name).toBe(reference.get(name)!.body);
        }
      }
    })().then(
      () => undefined,
      (error: unknown) => error,
    );

    // SIGKILL the replica holding the most markets: no goodbye, its lease must lapse first.
    const held = await placement();
    const counts = first.map((url) => [...held.values()].filter((holder) => holder === url).length);
    const victim = replicas[counts.indexOf(Math.max(...counts))]!;
    const killedAt = Date.now();
    await victim.piece.kill();
    const survivors = first.filter((url) => url !== victim.url);
    await waitFor(() => heldBy(survivors, false), 'the survivors took the dead replica’s markets over');
    const takeoverMs = Date.now() - killedAt;
    expect(await registered()).toEqual([...survivors].sort());
    await sameAnswersEverywhere();

    // A fourth replica joins, unknown to the gateway: after a lease it takes its share.
    const fourth = await startReplica('discovery-4');
    await waitFor(async () => [...(await placement()).values()].includes(fourth.url) && (await heldBy([...survivors, fourth.url], false)), 'markets moved to the new replica');
    await sameAnswersEverywhere();
    const refusedBeforeStop = refusals.length;

    // A survivor stops cleanly (SIGTERM): it gives its markets up while it still answers, the others take them.
    const leaving = replicas.find((replica) => replica.url === survivors[0])!;
    await leaving.piece.stop();
    const remaining = [survivors[1]!, fourth.url];
    await waitFor(() => heldBy(remaining, false), 'the markets of the replica that stopped were taken over');
    await sameAnswersEverywhere();
    asking = false;
    const failed = await prober;
    if (failed) throw failed;

    // The peers go through the same routing: pipeline → discovery (promotion), with the query's hash.
    const market = [...(await placement())].find(([, url]) => url === fourth.url)![0];
    const i = Number(market.slice('placed-'.length));
    const page = JSON.parse(reference.get(`query ${i}`)!.body);
    const promoted = await gateway.post('/v2/pipeline', { parcel_key: page.results[0].parcel_key, buy_box: `box-${i}`, query_hash: page.query_hash }, { headers: HEADERS });
    expect([promoted.status, promoted.body.status], JSON.stringify(promoted.body)).toEqual([202, 'created']);
    console.info(
      `placement: takeover after SIGKILL ${takeoverMs} ms (lease ${LEASE_SECONDS} s); 503 answers: ${refusedBeforeStop} through the SIGKILL and the join, ${refusals.length - refusedBeforeStop} through the clean stop`,
    );
  });
});
