// The shape of a prepared fact's provenance: on its own, so the table types (schema.ts) and
// its readers (field-provenance.ts, which needs the table types) both name it without importing
// each other.

/** How a prepared fact was made: what GetParcel and the discovery results show per field. */
export interface PreparedProvenance {
  /** The layer source it was read from (for a parcel overlay: the overlaid layer). */
  source: string | null;
  layer_version: string | null;
  formula_version: number | null;
  /** Every layer it used, when more than one (overlays: the parcel's vintage and the layers). */
  layers?: { source: string; layer_version: string }[];
  /** Why the fact is null. */
  null_reason?: string;
}

/**
 * Per prepared field: the entry of its facts, `null_reason` being the reason of a null fact whose
 * parcel stores none of its own (absent: every null fact of the field stores its reason).
 */
export type FieldProvenance = Record<string, PreparedProvenance>;
