import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import { afterAll, beforeAll } from 'vitest';
import { describeBusContract } from './bus-contract.test-helper.js';
import { connectNatsBus } from './nats-bus.js';
import { isStreamNotFound } from './nats-errors.js';

/** The machine's NATS server; every test uses its own stream and subjects and deletes them. */
const NATS_URL = process.env.EVENTS_TEST_NATS_URL ?? 'nats://127.0.0.1:4222';

let admin: NatsConnection;
let jsm: JetStreamManager;

beforeAll(async () => {
  admin = await connect({ servers: NATS_URL, name: 'events-test-admin' });
  jsm = await admin.jetstreamManager();
});

afterAll(async () => {
  await admin?.close();
});

describeBusContract('nats', async (stream) => ({
  bus: await connectNatsBus(NATS_URL, { name: 'events-test', publishTimeoutMs: 2_000 }),
  peer: () => connectNatsBus(NATS_URL, { name: 'events-test-peer' }),
  async dispose() {
    await jsm.streams.delete(stream).catch((error: unknown) => {
      if (!isStreamNotFound(error)) throw error;
    });
  },
}));
