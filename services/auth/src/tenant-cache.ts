import type { TenantRow } from './operations/tenants.js';

/** How long a tenant found by its slug is reused without asking the database again. */
export const TENANT_CACHE_MS = 30_000;
const MAX_ENTRIES = 10_000;

/**
 * Tenants by slug for legacy shared-secret callers (D7), who present no session to cache: without
 * this every worker request paid a tenant query (≈ 0.9 ms, bench:diligence). Safe to keep because
 * a tenant is never renamed or deleted (nothing updates or deletes auth.tenants; the slug is its
 * address, D3). Only found tenants are kept, so a tenant created a moment ago is found at once and
 * an unknown slug is asked every time. The secret itself is checked on every request before this
 * cache is consulted: a wrong secret is never answered from here.
 */
export class TenantCache {
  private readonly entries = new Map<string, { tenant: TenantRow; validUntil: number }>();

  get(slug: string, now: number): TenantRow | undefined {
    const entry = this.entries.get(slug);
    if (!entry) return undefined;
    if (entry.validUntil <= now) {
      this.entries.delete(slug);
      return undefined;
    }
    return entry.tenant;
  }

  set(tenant: TenantRow, now: number): void {
    // Bounded: slugs come from a header, so a flood of distinct (existing) slugs must not grow it forever.
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(tenant.slug, { tenant, validUntil: now + TENANT_CACHE_MS });
  }
}
