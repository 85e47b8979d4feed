import { describe, expect, it } from 'vitest';
import { TENANT_CACHE_MS, TenantCache } from './tenant-cache.js';

const acme = { id: '00000000-0000-4000-8000-000000000001', slug: 'acme', name: 'Acme' };

describe('TenantCache', () => {
  it('answers a tenant it was given until TENANT_CACHE_MS have passed, then forgets it', () => {
    const cache = new TenantCache();
    cache.set(acme, 1_000);
    expect(cache.get('acme', 1_000 + TENANT_CACHE_MS - 1)).toEqual(acme);
    expect(cache.get('acme', 1_000 + TENANT_CACHE_MS)).toBeUndefined();
    expect(cache.get('acme', 1_000)).toBeUndefined();
  });

  it('knows nothing of slugs it was not given (unknown tenants are asked every time)', () => {
    const cache = new TenantCache();
    cache.set(acme, 0);
    expect(cache.get('other', 0)).toBeUndefined();
  });
});
