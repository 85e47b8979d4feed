import type { Contact, RevealResponse } from '@landscreen/api-schemas';
import type { diligencev1 } from '@landscreen/proto';
import { nullIfAbsent } from '@landscreen/rpc';
import { openJson } from './open-json.js';

/** A revealed contact as customers see it (D28): who and from where, never its cost. */
export function customerContactJson(contact: diligencev1.Contact): Contact {
  return { id: contact.id, contact: openJson(contact.contactJson, {}), provider: contact.provider, created_at: contact.createdAt };
}

/** POST /v1/properties/{id}/reveal (D28): the contact with its property and request, and the ledger row paying for it. */
export function revealJson(reveal: diligencev1.RevealContactResponse): RevealResponse {
  if (!reveal.contact) throw new Error('the diligence service answered a reveal without the contact');
  const { ledger } = reveal;
  return {
    contact: { ...customerContactJson(reveal.contact), property_id: reveal.propertyId, provider_request_id: nullIfAbsent(reveal.providerRequestId) },
    ledger: ledger
      ? {
          id: ledger.id,
          job_id: nullIfAbsent(ledger.jobId),
          provider: ledger.provider,
          provider_request_id: nullIfAbsent(ledger.providerRequestId),
          amount_usd: ledger.amountUsd,
          recorded_at: ledger.recordedAt,
        }
      : null,
  };
}
