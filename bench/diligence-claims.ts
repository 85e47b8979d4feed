import http from 'node:http';
import pg from 'pg';
import { cpuMeter } from './lib/cpu.js';
import { percentile } from './lib/measure.js';

/**
 * Claims over the REST API: `claimers` concurrent workers, each job handed to two of them at once
 * (the queue holds every job twice, side by side), so every claim races another. A claim is
 * counted when it answers 200; the loser must answer 409. Afterwards the database is asked too:
 * no job may have two `diligence.job.claimed` events.
 */
export interface ClaimFigures {
  jobs: number;
  claimers: number;
  seconds: number;
  claims: number;
  claimsPerSecond: number;
  attempts: number;
  attemptsPerSecond: number;
  conflicts: number;
  doubleClaimsSeen: number;
  doubleClaimsInDatabase: number;
  otherAnswers: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  /** CPU ms per claim request: the server process, PostgreSQL, this load generator (Linux only). */
  cpu: { serverMs?: number; postgresMs?: number; loadGeneratorMs: number };
}

/** Creates `count` authorized jobs (with their six steps) for a tenant, in bulk SQL. */
export async function authorizedJobs(databaseUrl: string, tenantSlug: string, count: number): Promise<string[]> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const tenant = (await db.query<{ id: string }>('select id from auth.tenants where slug = $1', [tenantSlug])).rows[0]!.id;
    const { rows } = await db.query<{ id: string }>(
      `with new_jobs as (
         insert into diligence.jobs (tenant_id, tenant_slug, property_id, pipeline_item_id, market_id, vintage_id, parcel_key, status, max_cost_usd, authorize_note, authorized_at)
         select $1, $3, gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), gen_random_uuid(), 'bench-' || gen_random_uuid(), 'authorized', 10, 'bench', now()
         from generate_series(1, $2::int)
         returning id
       ), new_steps as (
         insert into diligence.steps (job_id, name, position)
         select j.id, s.name, s.position - 1
         from new_jobs j
         cross join unnest(array['parcel_record','point_data','hosting_capacity','utility_findings','owner_contact','report']) with ordinality as s(name, position)
       )
       select id from new_jobs`,
      [tenant, count, tenantSlug],
    );
    await db.query('analyze diligence.jobs; analyze diligence.steps');
    return rows.map((row) => row.id);
  } finally {
    await db.end();
  }
}

function post(agent: http.Agent, url: URL, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

export async function raceClaims(
  base: string,
  secret: string,
  tenant: string,
  jobIds: string[],
  claimers: number,
  databaseUrl: string,
  offersPerJob = 2,
  serverPid?: number,
): Promise<ClaimFigures> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: claimers });
  const headers = { authorization: `Bearer ${secret}`, 'x-tenant': tenant };
  const queue = jobIds.flatMap((id) => Array<string>(offersPerJob).fill(id));
  const winners = new Map<string, number>();
  const other: Record<string, number> = {};
  const timings: number[] = [];
  let conflicts = 0;
  let next = 0;
  const claimer = async (index: number) => {
    const body = JSON.stringify({ worker_id: `bench-${index}`, lease_seconds: 3600 });
    for (let at = next++; at < queue.length; at = next++) {
      const id = queue[at]!;
      const started = performance.now();
      const answer = await post(agent, new URL(`/v1/internal/diligence/jobs/${id}/claim`, base), headers, body);
      timings.push(performance.now() - started);
      if (answer.status === 200) winners.set(id, (winners.get(id) ?? 0) + 1);
      else if (answer.status === 409 && answer.text.includes('already_claimed')) conflicts++;
      else {
        const key = `${answer.status} ${answer.text.slice(0, 80)}`;
        other[key] = (other[key] ?? 0) + 1;
      }
    }
  };
  const meter = cpuMeter(serverPid);
  const started = performance.now();
  await Promise.all(Array.from({ length: claimers }, (_, index) => claimer(index)));
  const seconds = (performance.now() - started) / 1000;
  const cpu = meter.perItem(queue.length);
  agent.destroy();

  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const doubled = await db.query<{ n: number }>(
    `select count(*)::int as n from (select data->>'job_id' from diligence.outbox where subject = 'diligence.job.claimed' group by 1 having count(*) > 1) d`,
  );
  await db.end();
  timings.sort((a, b) => a - b);
  const claims = [...winners.values()].reduce((sum, n) => sum + n, 0);
  return {
    jobs: jobIds.length,
    claimers,
    seconds,
    claims,
    claimsPerSecond: Math.round(claims / seconds),
    attempts: queue.length,
    attemptsPerSecond: Math.round(queue.length / seconds),
    conflicts,
    doubleClaimsSeen: [...winners.values()].filter((n) => n > 1).length,
    doubleClaimsInDatabase: doubled.rows[0]!.n,
    otherAnswers: other,
    p50Ms: Math.round(percentile(timings, 0.5) * 10) / 10,
    p99Ms: Math.round(percentile(timings, 0.99) * 10) / 10,
    cpu,
  };
}
