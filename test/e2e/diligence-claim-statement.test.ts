import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { diligenceSubject } from '@landscreen/events';
import { ManualClock } from '@landscreen/rpc';
import { DATABASE_MODES, startTestStack, type TestStack } from '@landscreen/testing';
import { jobJson } from '../../gateway/src/views/job.js';
import { jobAnswer } from '../../services/diligence/src/operations/job-answer.js';
import { diligenceDb } from '../../services/diligence/src/schema.js';
import { isRefusal, moveJob } from '../../services/diligence/src/state-machine.js';
import { recordJobEvent } from '../../services/diligence/src/store/events.js';
import type { JobRow } from '../../services/diligence/src/store/jobs.js';
import { diligenceApi, expectStatus, newJob, outboxSubjects, session, type DiligenceApi } from '../support/diligence.js';

const WORKER = session('wes@fast.test', 'fast', 'worker');

/**
 * The one-statement claim of an authorized job (services/diligence/src/store/claim-authorized.ts)
 * writes its event and builds its answer in SQL; these tests hold it to what the locking path
 * (recordJobEvent, jobAnswer, the state machine's table) gives for the same claim.
 */
describe.each(DATABASE_MODES)('the one-statement claim on %s', (mode) => {
  let app: TestStack;
  let api: DiligenceApi;
  const clock = new ManualClock(new Date('2026-11-22T09:00:00.000Z'));

  beforeAll(async () => {
    app = await startTestStack(mode, { clock });
    expectStatus(await app.get('/v1/me', { headers: WORKER }), 200);
    api = diligenceApi(app, WORKER);
  });
  afterAll(() => app?.close());

  it('does what the state machine says a claim of an authorized job does', async () => {
    const { jobId } = await newJob(app, 'fast');
    expectStatus(await api.authorize(jobId), 200);
    const claim = expectStatus(await api.claim(jobId, 'worker-s'), 200).body;
    const move = moveJob('claim', 'authorized', {});
    if (isRefusal(move)) throw new Error('the table refuses claiming an authorized job');
    expect(claim.job.status).toBe(move.to);
    expect((await outboxSubjects(app, jobId)).at(-1)).toBe(diligenceSubject('job', move.event!));
  });

  it('writes the event recordJobEvent writes for that claim', async () => {
    const { jobId } = await newJob(app, 'fast');
    expectStatus(await api.authorize(jobId), 200);
    const claim = expectStatus(await api.claim(jobId, 'worker-f', 120), 200).body;
    const db = app.stack.database.db;
    const eventOf = async (subject: string) =>
      (await sql<{ data: Record<string, unknown> }>`select data from diligence.outbox where data->>'job_id' = ${jobId} and subject = ${subject} order by seq desc limit 1`.execute(db)).rows[0]!.data;
    const written = await eventOf('diligence.job.claimed');

    // The same claim's event as the locking path writes it, in a transaction rolled back after.
    const job = (await sql<JobRow>`select * from diligence.jobs where id = ${jobId}`.execute(db)).rows[0]!;
    let expected: Record<string, unknown> | undefined;
    await diligenceDb(db)
      .transaction()
      .execute(async (trx) => {
        await recordJobEvent(trx, 'claimed', job, clock.now(), { worker_id: 'worker-f', lease_expires_at: claim.lease_expires_at });
        expected = (await sql<{ data: Record<string, unknown> }>`select data from diligence.outbox where data->>'job_id' = ${jobId} order by seq desc limit 1`.execute(trx)).rows[0]!.data;
        throw new Error('roll back');
      })
      .catch((error: Error) => {
        if (error.message !== 'roll back') throw error;
      });
    expect(written).toEqual(expected);
  });

  it('a promoted job\'s created event carries what recordJobEvent gives every job event', async () => {
    const { jobId } = await newJob(app, 'fast');
    const db = app.stack.database.db;
    const created = (await sql<{ data: Record<string, unknown> }>`select data from diligence.outbox where data->>'job_id' = ${jobId} and subject = 'diligence.job.created'`.execute(db)).rows[0]!.data;
    const job = (await sql<JobRow>`select * from diligence.jobs where id = ${jobId}`.execute(db)).rows[0]!;
    let expected: Record<string, unknown> | undefined;
    await diligenceDb(db)
      .transaction()
      .execute(async (trx) => {
        await recordJobEvent(trx, 'created', job, new Date(created.at as string), { parcel_key: job.parcel_key });
        expected = (await sql<{ data: Record<string, unknown> }>`select data from diligence.outbox where data->>'job_id' = ${jobId} order by seq desc limit 1`.execute(trx)).rows[0]!.data;
        throw new Error('roll back');
      })
      .catch((error: Error) => {
        if (error.message !== 'roll back') throw error;
      });
    expect(created).toEqual(expected);
    expect(created.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it('answers the job as jobAnswer reads it, steps with results, money and dates included', async () => {
    const { jobId } = await newJob(app, 'fast');
    expectStatus(await api.authorize(jobId, '12.5'), 200);
    const db = app.stack.database.db;
    // A step that ran before (a job authorized again after a retryable failure carries such steps).
    await sql`update diligence.steps set status = 'ready', attempts = 2, provider = 'acme', provider_version = 'v1',
      provider_request_id = 'r-1', data = ${JSON.stringify({ summary: 'ok', n: 1.5 })}::jsonb, citations = ${JSON.stringify([{ url: 'https://x.test' }])}::jsonb,
      cost_usd = 1.25, error_code = 'e', error_message = 'm', started_at = ${new Date('2026-11-22T08:00:00.123Z')},
      completed_at = ${new Date('2026-11-22T08:01:00.456Z')} where job_id = ${jobId} and position = 0`.execute(db);
    const claim = expectStatus(await api.claim(jobId, 'worker-f'), 200).body;
    const job = (await sql<JobRow>`select * from diligence.jobs where id = ${jobId}`.execute(db)).rows[0]!;
    // The locking path's job message, printed by the gateway's one mapping of a job.
    expect(claim.job).toEqual(jobJson(await jobAnswer(diligenceDb(db), job, clock.now())));
    expect(claim.job.steps[0]).toMatchObject({ cost_usd: '1.2500', started_at: '2026-11-22T08:00:00.123Z', data: { summary: 'ok', n: 1.5 } });
  });

  it('leaves every refusal and the re-claim of an expired lease to the locking path', async () => {
    const { jobId } = await newJob(app, 'fast');
    expect((await api.claim(jobId)).body.code).toBe('not_authorized');
    expect((await api.claim('not-a-uuid')).body.code).toBe('job_not_found');
    expect((await api.claim('00000000-0000-4000-8000-000000000000')).body.code).toBe('job_not_found');
    expectStatus(await api.authorize(jobId), 200);
    expectStatus(await api.claim(jobId, 'worker-a', 60), 200);
    expect((await api.claim(jobId, 'worker-b')).body.code).toBe('already_claimed');
    clock.advance(60_000);
    expect(expectStatus(await api.claim(jobId, 'worker-b', 60), 200).body.job).toMatchObject({ claimed_by: 'worker-b' });
    const { rows } = await sql<{ data: Record<string, unknown> }>`select data from diligence.outbox where data->>'job_id' = ${jobId} and subject = 'diligence.job.claimed' order by seq`.execute(app.stack.database.db);
    expect(rows.map((row) => row.data.replaced_worker_id)).toEqual([undefined, 'worker-a']);
  });
});
