import type { ProcessDatabase } from '@landscreen/db';
import { findTenant, authDb } from '@landscreen/auth-service';
import { discoveryDb, entitle, importVintage } from '@landscreen/discovery-service';
import { toParcelRecord, type GeoJSONGeometry } from '@landscreen/parcel-io';

export interface TestFeature {
  geometry?: GeoJSONGeometry | null;
  properties: Record<string, unknown>;
}

/** Loads hand-made features as a new vintage of `market`, the way `landscreen import parcels` does. */
export async function loadMarket(db: ProcessDatabase, market: string, features: TestFeature[], name?: string) {
  async function* records() {
    let line = 0;
    for (const feature of features) yield toParcelRecord({ line: ++line, geometry: feature.geometry ?? null, properties: feature.properties }, market);
  }
  return importVintage(discoveryDb(db), { market, name, source: 'test', records: records() });
}

/** Entitles the tenant with this slug (it must exist) to a market. */
export async function entitleTenant(db: ProcessDatabase, tenantSlug: string, market: string): Promise<{ id: string; slug: string; name: string }> {
  const tenant = await findTenant(authDb(db), tenantSlug);
  if (!tenant) throw new Error(`no tenant ${tenantSlug}`);
  await entitle(discoveryDb(db), tenant.id, market);
  return tenant;
}
