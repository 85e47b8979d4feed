import type { FieldProvenance } from './field-provenance.js';

/** A market a caller may read and its current vintage, as the handlers work with them. */
export interface MarketVintage {
  market: { id: string; slug: string };
  vintage: { id: string; freeFactFields: string[]; derivedFields: string[]; fieldProvenance: FieldProvenance | null };
}
