import type { Kysely } from 'kysely';
import { findTenant } from '@landscreen/auth-service';
import { entitle, importVintage } from '@landscreen/discovery-service';
import { toParcelRecord, type GeoJSONGeometry } from '@landscreen/parcel-io';

export interface TestFeature {
  geometry?: GeoJSONGeometry | null;
  properties: Record<string, unknown>;
}

/** Loads hand-made features as a new vintage of `market`, the way `landscreen import parcels` does. */
export async function loadMarket(db: Kysely<any>, market: string, features: TestFeature[], name?: string) {
  async function* records() {
    let line = 0;
    for (const feature of features) yield toParcelRecord({ line: ++line, geometry: feature.geometry ?? null, properties: feature.properties }, market);
  }
  return importVintage(db, { market, name, source: 'test', records: records() });
}

/** Entitles the tenant with this slug (it must exist) to a market. */
export async function entitleTenant(db: Kysely<any>, tenantSlug: string, market: string) {
  const tenant = await findTenant(db, tenantSlug);
  if (!tenant) throw new Error(`no tenant ${tenantSlug}`);
  await entitle(db, tenant.id, market);
  return tenant;
}
