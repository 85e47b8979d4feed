// How calls find the replica holding what they are about: in turn at first, then straight to the
// holder an answer named (a key a request carries leading to the routing key its answer gave), to
// the next replica when one does not answer — for reads only — and never again to a holder that
// stopped answering until an answer names it again.

import { spawn } from 'node:child_process';
import http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { Code, ConnectError, createClient, type Transport } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { describe, expect, it } from 'vitest';
import { discoveryv1 } from '@landscreen/proto';
import { serviceError } from './errors.js';
import { isTransportFailure, isUnanswered, REPLICA_HEADER, replicaTransport, ROUTE_HEADER, type ReplicaRouting } from './replica-transport.js';
import { networkTransport } from './transports.js';

type Behaviour = (method: string, request: { key?: string }) => { route?: string; holder?: string } | Error;

/** A replica that records what it was asked and answers as told (no network). */
function fakeReplicas(behaviour: Record<string, Behaviour>) {
  const calls: string[] = [];
  const transportFor = (url: string): Transport => ({
    async unary(method, _signal, _timeout, _header, input) {
      calls.push(`${url} ${method.name}`);
      const outcome = behaviour[url]!(method.name, input as { key?: string });
      if (outcome instanceof Error) throw outcome;
      const header = new Headers();
      if (outcome.route) header.set(ROUTE_HEADER, outcome.route);
      if (outcome.holder) header.set(REPLICA_HEADER, outcome.holder);
      return { stream: false, service: {} as never, method: method as never, header, trailer: new Headers(), message: {} as never };
    },
    stream: () => Promise.reject(new Error('no streams here')),
  });
  return { calls, transportFor };
}

const routing: ReplicaRouting = {
  keyOf: (_method, request) => (request as { key?: string }).key,
  retryable: (method) => method.name !== 'Write',
};
const call = (transport: Transport, name: string, key?: string) =>
  transport.unary({ name } as never, undefined, undefined, undefined, { key } as never);

/** Every replica sends on to the holder of market m (c) and says so, as discovery's replicas do. */
const holderIsC: Behaviour = () => ({ route: 'm', holder: 'c' });
const refused = () => new ConnectError('connect ECONNREFUSED', Code.Unavailable);

describe('replicaTransport', () => {
  it('starts from the given replicas in turn, then goes straight to the holder an answer named', async () => {
    const { calls, transportFor } = fakeReplicas({ a: holderIsC, b: holderIsC, c: holderIsC });
    const transport = replicaTransport(['a', 'b'], routing, transportFor);
    await call(transport, 'Health');
    await call(transport, 'Health');
    expect(calls).toEqual(['a Health', 'b Health']);
    // A buy box's call: answered (by whoever) about market m, held by c — a replica never listed.
    await call(transport, 'Query', 'buy-box:t:dc');
    await call(transport, 'Query', 'buy-box:t:dc');
    await call(transport, 'Query', 'm');
    expect(calls.slice(2)).toEqual(['a Query', 'c Query', 'c Query']);
  });

  it('sends a read to the next replica when one does not answer, and forgets a holder that stopped', async () => {
    let cUp = true;
    const { calls, transportFor } = fakeReplicas({
      a: () => ({ route: 'm', holder: cUp ? 'c' : 'b' }),
      b: () => ({ route: 'm', holder: cUp ? 'c' : 'b' }),
      c: () => (cUp ? { route: 'm', holder: 'c' } : refused()),
    });
    const transport = replicaTransport(['a', 'b', 'c'], routing, transportFor);
    await call(transport, 'Query', 'm');
    await call(transport, 'Query', 'm');
    expect(calls).toEqual(['a Query', 'c Query']);
    cUp = false;
    await call(transport, 'Query', 'm');
    // c refused, the next replica in turn answered and named b; c is tried last for a while.
    expect(calls.slice(2)).toEqual(['c Query', 'a Query']);
    await call(transport, 'Query', 'm');
    expect(calls.at(-1)).toBe('b Query');
    await call(transport, 'Health');
    await call(transport, 'Health');
    await call(transport, 'Health');
    expect(calls.slice(-3).every((line) => !line.startsWith('c '))).toBe(true);
  });

  it('never sends a write twice, and passes on what a replica answered', async () => {
    const { calls, transportFor } = fakeReplicas({ a: refused, b: () => ({}) });
    const transport = replicaTransport(['a', 'b'], routing, transportFor);
    await expect(call(transport, 'Write')).rejects.toMatchObject({ code: Code.Unavailable });
    expect(calls).toEqual(['a Write']);
    const typed = fakeReplicas({ a: () => serviceError(Code.NotFound, 'market_not_found', 'No market.'), b: () => ({}) });
    const strict = replicaTransport(['a', 'b'], routing, typed.transportFor);
    await expect(call(strict, 'Query', 'm')).rejects.toMatchObject({ code: Code.NotFound });
    expect(typed.calls).toEqual(['a Query']);
  });
});

describe('replicaTransport over HTTP/2', () => {
  /** A replica stopping under the call: the stream is reset with INTERNAL_ERROR, nothing answered. */
  async function resettingReplica() {
    const server = http2.createServer();
    server.on('stream', (stream) => {
      stream.on('error', () => undefined); // the reset, as the stopping side sees it
      stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR);
    });
    return listening(server);
  }
  async function answeringReplica() {
    return listening(http2.createServer(connectNodeAdapter({ routes: (router) => router.service(discoveryv1.DiscoveryService, { locateParcels: () => ({ locations: [] }) }) })));
  }
  /** Its address, and a close that ends the sessions clients keep open (else close waits for them). */
  async function listening(server: http2.Http2Server) {
    const sessions = new Set<http2.ServerHttp2Session>();
    server.on('session', (session) => sessions.add(session));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    const close = () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      for (const session of sessions) session.destroy();
    });
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close };
  }

  it('takes a stream reset under a read as no answer and asks the next replica; the reset itself is a transport failure', async () => {
    const [stopping, answering] = [await resettingReplica(), await answeringReplica()];
    try {
      const reset = await createClient(discoveryv1.DiscoveryService, networkTransport(stopping.url)).locateParcels({ points: [] }).catch((error: unknown) => error);
      expect(ConnectError.from(reset).code).toBe(Code.Internal);
      expect([isTransportFailure(reset), isUnanswered(reset)]).toEqual([true, true]);
      expect(isTransportFailure(new ConnectError('relation "t" does not exist', Code.Internal))).toBe(false);
      const reads = { keyOf: () => undefined, retryable: () => true };
      const client = createClient(discoveryv1.DiscoveryService, replicaTransport([stopping.url, answering.url], reads));
      expect((await client.locateParcels({ points: [] })).locations).toEqual([]);
    } finally {
      await Promise.all([stopping.close(), answering.close()]);
    }
  });

  it('answers a read from the next replica when the one asked is SIGKILLed with the call in it', async () => {
    // A replica that takes calls and never answers, in a process of its own, killed mid-call.
    const child = spawn(process.execPath, ['-e', "const s = require('node:http2').createServer(); s.on('stream', () => console.log('call')); s.listen(0, '127.0.0.1', () => console.log(s.address().port));"]);
    const lines: string[] = [];
    const waiters: (() => void)[] = [];
    child.stdout.on('data', (data: Buffer) => {
      lines.push(...String(data).split('\n').filter(Boolean));
      for (const wake of waiters.splice(0)) wake();
    });
    const untilLines = async (count: number) => {
      while (lines.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    };
    const answering = await answeringReplica();
    try {
      await untilLines(1);
      const hanging = `http://127.0.0.1:${lines[0]}`;
      const killed = createClient(discoveryv1.DiscoveryService, networkTransport(hanging)).locateParcels({ points: [] }).catch((error: unknown) => error);
      const client = createClient(discoveryv1.DiscoveryService, replicaTransport([hanging, answering.url], { keyOf: () => undefined, retryable: () => true }));
      const answered = client.locateParcels({ points: [] });
      await untilLines(3); // both calls are in the replica when it dies
      child.kill('SIGKILL');
      expect(isUnanswered(await killed)).toBe(true);
      expect((await answered).locations).toEqual([]);
    } finally {
      child.kill('SIGKILL');
      await answering.close();
    }
  });
});

