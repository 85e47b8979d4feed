// A vintage's parcel index as flat arrays: what is stored and what an index is restored from.

import type { VectorLayerSnapshot } from '@landscreen/point-engine';

/** The record fields of the indexed parcels, one array per field by position. */
export interface ParcelRecordColumns {
  apn: (string | null)[];
  address: (string | null)[];
  owner_name: (string | null)[];
  zoning: (string | null)[];
  acres: (number | null)[];
  lat: (number | null)[];
  lon: (number | null)[];
}

export const RECORD_FIELDS = ['apn', 'address', 'owner_name', 'zoning', 'acres', 'lat', 'lon'] as const;

/** An index as flat arrays: what is stored (parcel-index-blob.ts) and what an index is restored from. */
export interface StoredParcelIndex {
  vintageId: string;
  shapes: VectorLayerSnapshot;
  keys: string[];
  records: ParcelRecordColumns;
  /** 1 where the stored geometry was a Polygon (the packed copy is always multi-part). */
  singlePart: Uint8Array;
}

export function emptyRecordColumns(): ParcelRecordColumns {
  return { apn: [], address: [], owner_name: [], zoning: [], acres: [], lat: [], lon: [] };
}
