import { Code, ConnectError, createClient, type Transport } from '@connectrpc/connect';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_RETRY_AFTER_SECONDS } from '@landscreen/db';
import { catalogv1 } from '@landscreen/proto';
import { directTransport } from './direct-transport.js';
import type { ServiceModule } from './module.js';
import { serveServices, type ServedServices } from './serve.js';
import { networkTransport } from './transports.js';
import { notFound, readServiceError } from './errors.js';
import { toServiceError } from './database-outage.js';

/** What the implementation throws next: a lost connection, a typed error, a bug. */
let failure: unknown;

const module: ServiceModule = {
  name: 'catalog',
  schema: 'catalog',
  migrations: {},
  routes: (router) =>
    router.service(catalogv1.CatalogService, {
      health: async () => {
        throw failure;
      },
    }),
};

/** One contract, both ways a service is reached: called in-process, and served over HTTP/2. */
describe.each([
  ['in-process (directTransport)', async () => ({ transport: directTransport([module]), close: async () => {} })],
  [
    'over the network (serveServices)',
    async () => {
      const served: ServedServices = await serveServices([module], { host: '127.0.0.1', port: 0 });
      return { transport: networkTransport(`http://127.0.0.1:${served.port}`), close: () => served.close() };
    },
  ],
] as const)('a database outage in a service called %s', (_name, open) => {
  let transport: Transport;
  let close: () => Promise<void>;
  beforeAll(async () => ({ transport, close } = await open()));
  afterAll(() => close?.());

  const call = () => createClient(catalogv1.CatalogService, transport).health({}).then(() => undefined, (error: unknown) => error);

  it('answers Unavailable, reason database_unavailable, with retry_after_seconds', async () => {
    failure = new Error('Connection terminated unexpectedly');
    const info = readServiceError(await call());
    expect(info.code).toBe(Code.Unavailable);
    expect(info.reason).toBe('database_unavailable');
    expect(info.fields).toEqual({ retry_after_seconds: DATABASE_RETRY_AFTER_SECONDS });
  });

  it('keeps a typed error as it is, and an untyped bug internal', async () => {
    failure = notFound('buybox_not_found', 'No such buy box.');
    expect(readServiceError(await call())).toMatchObject({ code: Code.NotFound, reason: 'buybox_not_found' });
    failure = new TypeError('cannot read properties of undefined');
    expect(readServiceError(await call()).reason).toBeUndefined();
    expect([Code.Unknown, Code.Internal]).toContain(readServiceError(await call()).code);
  });
});

describe('toServiceError', () => {
  it('leaves a typed Unavailable of a peer alone, even when a socket error caused it', () => {
    const peerDown = new ConnectError('peer unreachable', Code.Unavailable, undefined, undefined, Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    expect(readServiceError(toServiceError(peerDown)).reason).toBeUndefined();
  });
});
