// The provenance of prepared facts (`landscreen prepare`). Every parcel of a prepared
// vintage got a field's fact from the same layer versions and formula version, so that is stored
// once per vintage and field (vintages.field_provenance), with the null reason most of the field's
// nulls share. A parcel's own `provenance` keeps only what differs from it:
//   - a string: the null reason of this parcel's null fact (when not the field's usual one);
//   - an object: the whole entry (a parcel without a location, or another provenance altogether).
// Readers resolve the two into the entry every parcel used to store in full, so the public
// answers (D13's provenance per fact) are unchanged; see docs/decisions.md, "landscreen prepare".

import type { FieldProvenance } from './prepared-provenance.js';
import type { DiscoveryDb } from './schema.js';

export type { FieldProvenance, PreparedProvenance } from './prepared-provenance.js';

/** What a parcel stores per field: an import's computed entry, or a prepared fact's difference. */
export type StoredProvenance = Record<string, unknown>;

const CACHED_VINTAGES = 64;
const cache = new Map<string, Promise<FieldProvenance | null>>();

/**
 * The field provenance of a ready vintage (null for an imported one). A ready vintage never
 * changes, so it is read once per process (a few dozen kept, the most recent).
 */
export function fieldProvenanceOf(db: DiscoveryDb, vintageId: string): Promise<FieldProvenance | null> {
  let found = cache.get(vintageId);
  if (!found) {
    found = db
      .selectFrom('vintages')
      .select('field_provenance')
      .where('id', '=', vintageId)
      .executeTakeFirst()
      .then((row) => (row?.field_provenance as FieldProvenance | null | undefined) ?? null);
    found.catch(() => cache.delete(vintageId));
    if (cache.size >= CACHED_VINTAGES) cache.delete(cache.keys().next().value!);
    cache.set(vintageId, found);
  }
  return found;
}

/** The entries a vintage's readers hand out, made once per field and reason (rows share them). */
const resolved = new WeakMap<FieldProvenance, Map<string, Record<string, unknown>>>();

/**
 * The provenance entry of a prepared field for one parcel, as every parcel once stored it (plus
 * the vintage id): `stored` is the parcel's own entry for the field, `isNull` whether its fact is
 * null. Undefined when the field was not prepared in this vintage and the parcel stores nothing.
 */
export function preparedEntry(
  fields: FieldProvenance | null | undefined,
  field: string,
  stored: unknown,
  isNull: boolean,
  vintageId: string,
): Record<string, unknown> | undefined {
  if (stored !== undefined && stored !== null && typeof stored === 'object') return { ...(stored as object), vintage_id: vintageId };
  const entry = fields && Object.hasOwn(fields, field) ? fields[field] : undefined;
  if (!entry) return typeof stored === 'string' ? { null_reason: stored, vintage_id: vintageId } : undefined;
  const reason = typeof stored === 'string' ? stored : isNull ? (entry.null_reason ?? null) : null;
  let byReason = resolved.get(fields!);
  if (!byReason) resolved.set(fields!, (byReason = new Map()));
  const key = `${field}\u0000${reason ?? ''}`;
  let made = byReason.get(key);
  if (!made) {
    const { null_reason: _default, ...common } = entry;
    made = Object.freeze(reason === null ? { ...common, vintage_id: vintageId } : { ...common, null_reason: reason, vintage_id: vintageId });
    byReason.set(key, made);
  }
  return made;
}
