import type { DiligenceDb } from '../schema.js';

/** The contacts on record for a property of the tenant, oldest first. */
export function contactsOf(db: DiligenceDb, tenantId: string, propertyId: string) {
  return db.selectFrom('contacts').selectAll().where('tenant_id', '=', tenantId).where('property_id', '=', propertyId).orderBy('created_at').orderBy('id').execute();
}
