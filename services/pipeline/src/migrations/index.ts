import type { MigrationSet } from '@landscreen/db';
import * as createSchema from './20261122T000000_create_schema.js';
import * as propertiesItemsMatches from './20261122T000100_properties_items_matches.js';
import * as leadsDeliveries from './20261123T130000_leads_deliveries.js';
import * as positionalCards from './20261126T120000_positional_cards.js';
import * as outboxTraceparent from './20261128T000000_outbox_traceparent.js';

/** Every migration of the "pipeline" schema, in order. New migrations are appended here. */
export const migrations: MigrationSet = {
  '20261122T000000_create_schema': createSchema,
  '20261122T000100_properties_items_matches': propertiesItemsMatches,
  '20261123T130000_leads_deliveries': leadsDeliveries,
  '20261126T120000_positional_cards': positionalCards,
  '20261128T000000_outbox_traceparent': outboxTraceparent,
};
