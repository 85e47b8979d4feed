import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { describe, expect, it } from 'vitest';
import { catalogv1 } from '@landscreen/proto';
import { directTransport } from './direct-transport.js';
import type { ServiceModule } from './module.js';

/** What the implementation answers next, and the request it was handed. */
let answer: unknown;
let received: catalogv1.FetchBatchRequest | undefined;

const module: ServiceModule = {
  name: 'catalog',
  schema: 'catalog',
  migrations: {},
  routes: (router) =>
    router.service(catalogv1.CatalogService, {
      fetchBatch: async (request: catalogv1.FetchBatchRequest) => {
        received = request;
        return answer as catalogv1.FetchBatchResponse;
      },
    }),
};

const values = (init: Partial<catalogv1.FetchValues>) =>
  ({ $typeName: 'landscreen.catalog.v1.FetchValues', kinds: [], numbers: [], strings: [], nullReasons: [], ...init }) as catalogv1.FetchValues;
const response = (fetched: unknown) => ({ fields: ['f'], results: [{ $typeName: 'landscreen.catalog.v1.FetchResult', lat: 1, lon: 2, values: fetched }] });
const call = (checkMessages: boolean) =>
  createClient(catalogv1.CatalogService, directTransport([module], { checkMessages })).fetchBatch({ locations: [{ lat: 30.5, lon: -97.5, id: 'a' }], fields: ['f'] });

describe('the in-process transport in check mode', () => {
  it('hands over decoded copies that equal what was sent, NaN included', async () => {
    answer = response(values({ kinds: [catalogv1.FetchValueKind.NUMBER], numbers: [Number.NaN] }));
    const answered = await call(true);
    expect(answered.results[0].values!.numbers[0]).toBeNaN();
    expect(answered.results[0]).not.toBe((answer as { results: unknown[] }).results[0]);
    expect(received!.locations).toEqual([expect.objectContaining({ lat: 30.5, lon: -97.5, id: 'a' })]);
  });

  it('fails a message that does not come back the same (a string that is not valid UTF-16), which the unchecked hop lets through', async () => {
    answer = response(values({ kinds: [catalogv1.FetchValueKind.STRING], strings: ['lone \ud800 surrogate'] }));
    expect((await call(false)).results[0].values!.strings).toEqual(['lone \ud800 surrogate']);
    const error = await call(true).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.Internal);
    expect((error as ConnectError).rawMessage).toContain('the answer of landscreen.catalog.v1.CatalogService.FetchBatch (landscreen.catalog.v1.FetchBatchResponse) does not decode to what was sent');
  });

  it('fails a message that cannot be encoded (a value of the wrong type)', async () => {
    answer = response(values({ kinds: [catalogv1.FetchValueKind.NUMBER], numbers: ['12' as unknown as number] }));
    const error = await call(true).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.Internal);
    expect((error as ConnectError).rawMessage).toMatch(/in-process message check: the answer of .*FetchBatch/);
  });
});
