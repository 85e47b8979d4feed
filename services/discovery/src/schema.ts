import type { Generated, Kysely, Transaction } from 'kysely';
import { schemaView, type Narrowed, type ProcessDatabase } from '@landscreen/db';
import type { FieldProvenance } from './prepared-provenance.js';
import type * as tables from './tables.generated.js';

/** The PostgreSQL schema this service owns. */
export const SCHEMA = 'discovery';

// The tables as the migrations make them (`tables.generated.ts`, written by `npm run
// generate:tables`; CI fails when it is stale), narrowed where the code knows more.
export type MarketsTable = tables.DiscoveryMarkets;
export type VintagesTable = Narrowed<
  tables.DiscoveryVintages,
  {
    status: 'loading' | 'ready' | 'failed';
    /** Prepared vintages: the provenance of each prepared field (field-provenance.ts); else null. */
    field_provenance: FieldProvenance | null;
  }
>;
export type ParcelsTable = Narrowed<
  tables.DiscoveryParcels,
  {
    /** GeoJSON geometry as imported; null for a parcel without one. */
    geometry: Record<string, unknown> | null;
    /** [west, south, east, north] of the geometry. */
    bbox: number[] | null;
    /** Per field, where an imported fact came from (field-provenance.ts). */
    provenance: Generated<Record<string, unknown>>;
  }
>;
export type EntitlementsTable = tables.DiscoveryEntitlements;
export type BuyBoxesTable = tables.DiscoveryBuyBoxes;
export type SigningKeysTable = tables.DiscoverySigningKeys;
/** A stored ranking-index column of a vintage (ranking/column-store.ts). */
export type VintageColumnsTable = tables.DiscoveryVintageColumns;
/** A vintage's stored parcel index, in parts (locate/parcel-index-store.ts). */
export type VintageParcelShapesTable = tables.DiscoveryVintageParcelShapes;
/** A discovery replica and its lease (placement/placement-store.ts). */
export type ReplicasTable = tables.DiscoveryReplicas;
/** Which replica holds a market in memory. */
export type MarketOwnersTable = tables.DiscoveryMarketOwners;
/** A vintage being written a chunk at a time, until it is finished or abandoned (operations/prepared-vintage.ts). */
export type PrepareJobsTable = tables.DiscoveryPrepareJobs;
/** A chunk of a prepare job that is written: never written again. */
export type PrepareChunksDoneTable = tables.DiscoveryPrepareChunksDone;

export interface DiscoveryDatabase {
  markets: MarketsTable;
  vintages: VintagesTable;
  parcels: ParcelsTable;
  entitlements: EntitlementsTable;
  buy_boxes: BuyBoxesTable;
  signing_keys: SigningKeysTable;
  vintage_columns: VintageColumnsTable;
  vintage_parcel_shapes: VintageParcelShapesTable;
  replicas: ReplicasTable;
  market_owners: MarketOwnersTable;
  prepare_jobs: PrepareJobsTable;
  prepare_chunks_done: PrepareChunksDoneTable;
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
