import type { Selectable } from 'kysely';
import type { diligencev1 } from '@landscreen/proto';
import { absentIfNull, jsonBytes } from '@landscreen/rpc';
import type { ContactsTable, CostLedgerTable } from '../schema.js';
import { isoTime } from './job-view.js';

type ContactRow = Selectable<ContactsTable>;
type LedgerRow = Selectable<CostLedgerTable>;

/** A contact as the property page shows it to customers (D28): who and from where, never its cost. */
export const customerContactView = (row: ContactRow): diligencev1.Contact => ({
  $typeName: 'landscreen.diligence.v1.Contact',
  id: row.id,
  contactJson: jsonBytes(row.contact),
  provider: row.provider,
  createdAt: isoTime(row.created_at),
});

/** The answer to a reveal (admin or worker): the contact and the ledger row it was paid with. */
export const revealView = (contact: ContactRow, ledger: LedgerRow | undefined): diligencev1.RevealContactResponse => ({
  $typeName: 'landscreen.diligence.v1.RevealContactResponse',
  contact: customerContactView(contact),
  propertyId: contact.property_id,
  providerRequestId: absentIfNull(contact.provider_request_id),
  ledger: ledger
    ? {
        $typeName: 'landscreen.diligence.v1.LedgerEntry',
        id: ledger.id,
        jobId: absentIfNull(ledger.job_id),
        provider: ledger.provider,
        providerRequestId: absentIfNull(ledger.provider_request_id),
        amountUsd: ledger.amount_usd,
        recordedAt: isoTime(ledger.recorded_at),
      }
    : undefined,
});
