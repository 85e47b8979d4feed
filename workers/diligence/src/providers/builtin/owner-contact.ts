import type { StepProvider } from '../provider.js';
import { BUILTIN_PROVIDER, builtinResult, noFacts, vintageCitation } from './builtin-result.js';

/**
 * owner_contact: a contact already on record for the property (revealed through
 * POST /v1/properties/{id}/reveal) makes it ready; the parcel's owner of record without contact
 * details is partial; neither needs a person (or a configured contact provider).
 */
export const ownerContactProvider: StepProvider = {
  name: BUILTIN_PROVIDER,
  async run(input) {
    if (!input.property) return noFacts(input, 'Owner contact');
    const contacts = input.property.contacts;
    const ownerName = input.property.property.parcel?.typed.owner_name ?? null;
    if (contacts.length > 0) {
      const latest = contacts[contacts.length - 1]!;
      return builtinResult(
        input,
        'ready',
        `${contacts.length} contact${contacts.length > 1 ? 's' : ''} on record (latest from ${latest.provider}).`,
        { owner_name: ownerName, contact_ids: contacts.map((contact) => contact.id) },
        contacts.map((contact) => ({ source: 'revealed_contact', contact_id: contact.id, provider: contact.provider, recorded_at: contact.created_at })),
      );
    }
    if (ownerName) {
      return builtinResult(input, 'partial', `Owner of record: ${String(ownerName)}; no contact details on record.`, { owner_name: ownerName }, [
        vintageCitation(input, ['owner_name']),
      ]);
    }
    return builtinResult(input, 'needs_review', 'No owner or contact is on record for this parcel.', { owner_name: null }, []);
  },
};
