import type { ExportColumn, ExportFeature } from '@landscreen/feature-export';
import type { pipelinev1 } from '@landscreen/proto';
import { coordinateCell, pointOf } from './export-columns.js';

// A delivery as an export table (D40): a row per lead in rank order, at its parcel's point.

export const DELIVERY_COLUMNS: readonly ExportColumn[] = [
  { name: 'rank', kind: 'number' },
  { name: 'parcel_key', kind: 'string' },
  { name: 'apn', kind: 'string' },
  { name: 'address', kind: 'string' },
  { name: 'acres', kind: 'number' },
  { name: 'score', kind: 'number' },
  { name: 'verdict', kind: 'string' },
  { name: 'review_required', kind: 'boolean' },
  { name: 'property_id', kind: 'string' },
  { name: 'lat', kind: 'number' },
  { name: 'lon', kind: 'number' },
];

export function deliveryFeature(lead: pipelinev1.DeliveryLead): ExportFeature {
  return {
    geometry: pointOf(lead.lat, lead.lon),
    properties: {
      rank: lead.rank,
      parcel_key: lead.parcelKey,
      apn: lead.apn ?? null,
      address: lead.address ?? null,
      acres: lead.acres ?? null,
      score: lead.score,
      verdict: lead.verdict,
      review_required: lead.reviewRequired,
      property_id: lead.propertyId,
      lat: coordinateCell(lead.lat),
      lon: coordinateCell(lead.lon),
    },
  };
}
