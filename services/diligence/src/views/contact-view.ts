import type { Selectable } from 'kysely';
import type { ContactsTable, CostLedgerTable } from '../schema.js';

type ContactRow = Selectable<ContactsTable>;
type LedgerRow = Selectable<CostLedgerTable>;

const iso = (value: Date) => new Date(value).toISOString();

/** A contact as the property page shows it to customers (D28): who and from where, never its cost. */
export const customerContactView = (row: ContactRow) => ({
  id: row.id,
  contact: row.contact,
  provider: row.provider,
  created_at: iso(row.created_at),
});

/** The answer to a reveal (admin or worker): the contact and the ledger row it was paid with. */
export const revealView = (contact: ContactRow, ledger: LedgerRow | undefined) => ({
  contact: { ...customerContactView(contact), property_id: contact.property_id, provider_request_id: contact.provider_request_id },
  ledger: ledger
    ? {
        id: ledger.id,
        job_id: ledger.job_id,
        provider: ledger.provider,
        provider_request_id: ledger.provider_request_id,
        amount_usd: ledger.amount_usd,
        recorded_at: iso(ledger.recorded_at),
      }
    : null,
});
