import type { Generated, Kysely } from 'kysely';
import type { FieldProvenance } from './field-provenance.js';

/** The PostgreSQL schema this service owns. */
export const SCHEMA = 'discovery';

export interface MarketsTable {
  id: Generated<string>;
  slug: string;
  name: string;
  current_vintage_id: string | null;
  created_at: Generated<Date>;
}
export interface VintagesTable {
  id: Generated<string>;
  market_id: string;
  status: 'loading' | 'ready' | 'failed';
  source: string;
  parcel_count: Generated<number>;
  free_fact_fields: Generated<string[]>;
  derived_fields: Generated<string[]>;
  /** Prepared vintages: the provenance of each prepared field (field-provenance.ts); else null. */
  field_provenance: Generated<FieldProvenance | null>;
  created_at: Generated<Date>;
  completed_at: Date | null;
}
export interface ParcelsTable {
  vintage_id: string;
  parcel_key: string;
  apn: string | null;
  apn_normalised: string | null;
  address: string | null;
  address_normalised: string | null;
  lat: number | null;
  lon: number | null;
  bbox: unknown;
  geometry: unknown;
  acres: number | null;
  developable_acres: number | null;
  zoning: string | null;
  land_use: string | null;
  owner_name: string | null;
  assessed_value_usd: number | null;
  provenance: unknown;
}
export interface EntitlementsTable {
  tenant_id: string;
  market_id: string;
  created_at: Generated<Date>;
}
export interface BuyBoxesTable {
  id: Generated<string>;
  tenant_id: string;
  name: string;
  description: string | null;
  spec: unknown;
  spec_hash: string;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export interface SigningKeysTable {
  name: string;
  secret: Buffer;
}

export interface DiscoveryDatabase {
  markets: MarketsTable;
  vintages: VintagesTable;
  parcels: ParcelsTable;
  entitlements: EntitlementsTable;
  buy_boxes: BuyBoxesTable;
  signing_keys: SigningKeysTable;
}

export type DiscoveryDb = Kysely<DiscoveryDatabase>;

/** The service's view of the process database: every query lands in the "discovery" schema. */
export const discoveryDb = (db: Kysely<any>): DiscoveryDb => db.withSchema(SCHEMA) as DiscoveryDb;
