import type { pipelinev1 } from '@landscreen/proto';
import { nullIfAbsent } from '@landscreen/rpc';

/**
 * A pipeline item as its REST record (the card of D18/D21): position, screen_status and
 * diligence_job_id first, then the item and its property with the latest verdict; every absent
 * optional field null. A plain object per card, serialised by JSON.stringify with the rest of
 * the answer: the board maps thousands of them.
 */
export function cardJson(card: pipelinev1.Card) {
  const property = card.property!;
  return {
    position: card.position,
    screen_status: nullIfAbsent(card.screenStatus),
    diligence_job_id: nullIfAbsent(card.diligenceJobId),
    id: card.id,
    property_id: card.propertyId,
    stage: card.stage,
    archived: card.archived,
    notes: nullIfAbsent(card.notes),
    created_at: card.createdAt,
    updated_at: card.updatedAt,
    property: {
      id: property.id,
      market: property.market,
      parcel_key: property.parcelKey,
      apn: nullIfAbsent(property.apn),
      address: nullIfAbsent(property.address),
      lat: nullIfAbsent(property.lat),
      lon: nullIfAbsent(property.lon),
      acres: nullIfAbsent(property.acres),
      buy_box: nullIfAbsent(property.buyBox),
      verdict: nullIfAbsent(property.verdict),
      score: nullIfAbsent(property.score),
    },
  };
}

/** GET /v1/pipeline: `{"items":[...],"total"}` in board order; a plain loop over the cards. */
export function boardJson(cards: readonly pipelinev1.Card[]) {
  const items = new Array<ReturnType<typeof cardJson>>(cards.length);
  for (let index = 0; index < cards.length; index++) items[index] = cardJson(cards[index]!);
  return { items, total: cards.length };
}
