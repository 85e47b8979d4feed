// How calls find the replica holding what they are about: in turn at first, then straight to the
// holder an answer named (a key a request carries leading to the routing key its answer gave), to
// the next replica when one does not answer — for reads only — and never again to a holder that
// stopped answering until an answer names it again.

import { Code, ConnectError, type Transport } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { serviceError } from './errors.js';
import { REPLICA_HEADER, replicaTransport, ROUTE_HEADER, type ReplicaRouting } from './replica-transport.js';

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
