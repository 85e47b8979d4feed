import type { Generated, Kysely, Transaction } from 'kysely';
import { schemaView, type Narrowed, type ProcessDatabase } from '@landscreen/db';
import type { ScreenStatusesView } from '@landscreen/diligence-service/data-access';
import type * as tables from './tables.generated.js';

/** The PostgreSQL schema this service owns. */
export const SCHEMA = 'pipeline';

// The tables as the migrations make them (`tables.generated.ts`, written by `npm run
// generate:tables`; CI fails when it is stale), narrowed where the code knows more.
export type PropertiesTable = tables.PipelineProperties;
/** A board card. `stage_rank` is generated from `stage` (its place in board order, stages.ts stageRank); `card` is rendered by the items_render_card trigger. */
export type ItemsTable = tables.PipelineItems;
export type BuyBoxMatchesTable = Narrowed<tables.PipelineBuyBoxMatches, { source: 'ranked' | 'direct' }>;
/** `caller` is the Caller who asked, as JSON: the worker acts as it. */
export type LeadRequestsTable = Narrowed<tables.PipelineLeadRequests, { status: Generated<'open' | 'fulfilled' | 'failed'> }>;
export type DeliveriesTable = tables.PipelineDeliveries;
export type DeliveryLeadsTable = tables.PipelineDeliveryLeads;
export type OutboxTable = tables.PipelineOutbox;

export interface PipelineDatabase {
  properties: PropertiesTable;
  items: ItemsTable;
  buy_box_matches: BuyBoxMatchesTable;
  lead_requests: LeadRequestsTable;
  deliveries: DeliveriesTable;
  delivery_leads: DeliveryLeadsTable;
  outbox: OutboxTable;
  /** Read only: the job status of each property, published by the diligence schema (D21). */
  'diligence.screen_statuses': ScreenStatusesView;
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
