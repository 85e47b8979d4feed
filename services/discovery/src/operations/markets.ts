import type { DiscoveryDb } from '../schema.js';

export const MARKET_SLUG = /^[a-z0-9](?:[a-z0-9-]{0,98}[a-z0-9])?$/;

export class DiscoveryInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DiscoveryInputError';
  }
}

export interface MarketRow {
  id: string;
  slug: string;
  name: string;
  current_vintage_id: string | null;
}

/** Finds a market by slug, creating it (named `name`, else the slug) when it does not exist. */
export async function ensureMarket(db: DiscoveryDb, slug: string, name?: string): Promise<MarketRow> {
  if (!MARKET_SLUG.test(slug)) throw new DiscoveryInputError(`"${slug}" is not a valid market slug (lowercase letters, digits and dashes)`);
  const discovery = db;
  await discovery
    .insertInto('markets')
    .values({ slug, name: name?.trim() || slug, current_vintage_id: null })
    .onConflict((conflict) => conflict.column('slug').doNothing())
    .execute();
  if (name?.trim()) await discovery.updateTable('markets').set({ name: name.trim() }).where('slug', '=', slug).execute();
  return discovery.selectFrom('markets').select(['id', 'slug', 'name', 'current_vintage_id']).where('slug', '=', slug).executeTakeFirstOrThrow();
}

export async function findMarket(db: DiscoveryDb, slug: string): Promise<MarketRow | undefined> {
  return db.selectFrom('markets').select(['id', 'slug', 'name', 'current_vintage_id']).where('slug', '=', slug).executeTakeFirst();
}

/** D16: entitles a tenant to a market (idempotent). */
export async function entitle(db: DiscoveryDb, tenantId: string, marketSlug: string): Promise<MarketRow> {
  const market = await findMarket(db, marketSlug);
  if (!market) throw new DiscoveryInputError(`no market "${marketSlug}"`);
  await db
    .insertInto('entitlements')
    .values({ tenant_id: tenantId, market_id: market.id })
    .onConflict((conflict) => conflict.columns(['tenant_id', 'market_id']).doNothing())
    .execute();
  return market;
}
