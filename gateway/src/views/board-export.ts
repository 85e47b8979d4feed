import type { ExportColumn, ExportFeature } from '@landscreen/feature-export';
import type { pipelinev1 } from '@landscreen/proto';
import { coordinateCell, pointOf } from './export-columns.js';

// The pipeline board as an export table (D40): a row per card in board order, at its parcel's point.

export const BOARD_COLUMNS: readonly ExportColumn[] = [
  { name: 'stage', kind: 'string' },
  { name: 'position', kind: 'number' },
  { name: 'parcel_key', kind: 'string' },
  { name: 'market', kind: 'string' },
  { name: 'apn', kind: 'string' },
  { name: 'address', kind: 'string' },
  { name: 'acres', kind: 'number' },
  { name: 'buy_box', kind: 'string' },
  { name: 'verdict', kind: 'string' },
  { name: 'score', kind: 'number' },
  { name: 'screen_status', kind: 'string' },
  { name: 'notes', kind: 'string' },
  { name: 'archived', kind: 'boolean' },
  { name: 'item_id', kind: 'string' },
  { name: 'property_id', kind: 'string' },
  { name: 'lat', kind: 'number' },
  { name: 'lon', kind: 'number' },
];

export function boardFeature(card: pipelinev1.Card): ExportFeature {
  const property = card.property!;
  return {
    geometry: pointOf(property.lat, property.lon),
    properties: {
      stage: card.stage,
      position: card.position,
      parcel_key: property.parcelKey,
      market: property.market,
      apn: property.apn ?? null,
      address: property.address ?? null,
      acres: property.acres ?? null,
      buy_box: property.buyBox ?? null,
      verdict: property.verdict ?? null,
      score: property.score ?? null,
      screen_status: card.screenStatus ?? null,
      notes: card.notes ?? null,
      archived: card.archived,
      item_id: card.id,
      property_id: card.propertyId,
      lat: coordinateCell(property.lat),
      lon: coordinateCell(property.lon),
    },
  };
}
