import type { Generated, Kysely, Transaction } from 'kysely';
import { schemaView, type ProcessDatabase } from '@landscreen/db';

/** The PostgreSQL schema this service owns. */
export const SCHEMA = 'pipeline';

export interface PropertiesTable {
  id: Generated<string>;
  tenant_id: string;
  market_id: string;
  market: string;
  parcel_key: string;
  vintage_id: string;
  apn: string | null;
  address: string | null;
  lat: number | null;
  lon: number | null;
  acres: number | null;
  parcel: unknown;
  created_at: Generated<Date>;
}
export interface ItemsTable {
  id: Generated<string>;
  tenant_id: string;
  property_id: string;
  stage: Generated<string>;
  /** Generated from `stage`: its place in board order (stages.ts stageRank). */
  stage_rank: Generated<number>;
  position: number;
  notes: string | null;
  buy_box: string | null;
  verdict: string | null;
  score: number | null;
  /** Rendered by the items_render_card trigger. */
  card: Generated<string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}
export interface BuyBoxMatchesTable {
  id: Generated<string>;
  tenant_id: string;
  property_id: string;
  buy_box_id: string;
  buy_box: string;
  spec_hash: string;
  query_hash: string;
  vintage_id: string;
  source: 'ranked' | 'direct';
  verdict: string;
  score: number;
  eligible: boolean;
  applied_spec: unknown;
  evaluation: unknown;
  failed: unknown;
  created_at: Generated<Date>;
}

export interface LeadRequestsTable {
  id: Generated<string>;
  tenant_id: string;
  /** The Caller who asked, as JSON: the worker acts as it. */
  caller: unknown;
  buy_box: string;
  count: number;
  note: string | null;
  status: Generated<'open' | 'fulfilled' | 'failed'>;
  delivery_id: string | null;
  failure_code: string | null;
  failure_reason: string | null;
  created_at: Generated<Date>;
  completed_at: Date | null;
}
export interface DeliveriesTable {
  id: Generated<string>;
  tenant_id: string;
  lead_request_id: string;
  buy_box_id: string;
  buy_box: string;
  spec_hash: string;
  query_hash: string;
  applied_spec: unknown;
  market: string;
  market_id: string;
  vintage_id: string;
  lead_count: number;
  created_at: Generated<Date>;
}
export interface DeliveryLeadsTable {
  delivery_id: string;
  tenant_id: string;
  rank: number;
  parcel_key: string;
  property_id: string;
  apn: string | null;
  address: string | null;
  acres: number | null;
  lat: number | null;
  lon: number | null;
  score: number;
  verdict: string;
  review_required: boolean;
}
export interface OutboxTable {
  id: Generated<string>;
  seq: Generated<string>;
  subject: string;
  data: unknown;
  created_at: Generated<Date>;
  published_at: Date | null;
}

export interface PipelineDatabase {
  properties: PropertiesTable;
  items: ItemsTable;
  buy_box_matches: BuyBoxMatchesTable;
  lead_requests: LeadRequestsTable;
  deliveries: DeliveriesTable;
  delivery_leads: DeliveryLeadsTable;
  outbox: OutboxTable;
}

/** The service's view of the process database: every query lands in the "pipeline" schema. */
export type PipelineDb = Kysely<PipelineDatabase>;

/**
 * A transaction on that view. What must hold the board's lock until commit (placing or moving a
 * card) or commit together (a promotion's property, match and item; a lead request and its
 * outbox event) takes this type: called with the plain view, it does not compile.
 */
export type PipelineTransaction = Transaction<PipelineDatabase>;

/** The service's view of the process database (made once, where the service starts). */
export const pipelineDb = (db: ProcessDatabase): PipelineDb => schemaView<PipelineDatabase>(db, SCHEMA);
