import type { Generated, Kysely, Transaction } from 'kysely';
import { schemaView, type ProcessDatabase } from '@landscreen/db';
import type { FieldProvenance } from './prepared-provenance.js';

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

/** The service's view of the process database: every query lands in the "discovery" schema. */
export type DiscoveryDb = Kysely<DiscoveryDatabase>;

/**
 * A transaction on that view. What must commit together (a vintage, its parcels, its stored
 * columns and the market's switch to it) takes this type: called with the plain view, it does
 * not compile.
 */
export type DiscoveryTransaction = Transaction<DiscoveryDatabase>;

/** The service's view of the process database (made once, where the service or command starts). */
export const discoveryDb = (db: ProcessDatabase): DiscoveryDb => schemaView<DiscoveryDatabase>(db, SCHEMA);
