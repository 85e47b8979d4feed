import type { pipelinev1 } from '@landscreen/proto';
import { nullIfAbsent } from '@landscreen/rpc';
import * as discoveryjson from '@landscreen/discovery-json';
import { cardJson } from './card.js';
import { propertyDiligenceJson } from './property-diligence.js';

const decoder = new TextDecoder();
/** Stored JSON a service sent verbatim (an open document), as a value of the answer. */
const documentOf = (bytes: Uint8Array): unknown => (bytes.length === 0 ? null : JSON.parse(decoder.decode(bytes)));

/** A buy-box match without its stored screen (the property's `buy_box_matches`, D28). */
export function buyBoxMatchJson(match: pipelinev1.BuyBoxMatch) {
  return {
    buy_box_match_id: match.id,
    buy_box: match.buyBox,
    buy_box_id: match.buyBoxId,
    spec_hash: match.specHash,
    query_hash: match.queryHash,
    vintage_id: match.vintageId,
    source: match.source,
    verdict: match.verdict,
    score: match.score,
    eligible: match.eligible,
    failed: discoveryjson.mustEvidenceValues(match.failed),
    screened_at: match.screenedAt,
  };
}

/** The deep screen: the latest match with the spec it applied and the evaluation it stored. */
export function deepScreenJson(screen: pipelinev1.DeepScreen) {
  const { screened_at: screenedAt, ...match } = buyBoxMatchJson(screen.match!);
  return {
    ...match,
    applied_spec: discoveryjson.buyBoxSpecValue(screen.appliedSpec),
    evaluation: documentOf(screen.evaluationJson),
    screened_at: screenedAt,
  };
}

/** The fields a property record and a report's property share, in the record's order. */
type PropertyHead = Pick<pipelinev1.Property, 'id' | 'market' | 'marketId' | 'parcelKey' | 'vintageId' | 'apn' | 'address' | 'lat' | 'lon' | 'acres'>;

/** A property's identity, market, parcel key, vintage and record fields; every absent one null. */
export function propertyHeadJson(property: PropertyHead) {
  return {
    id: property.id,
    market: property.market,
    market_id: property.marketId,
    parcel_key: property.parcelKey,
    vintage_id: property.vintageId,
    apn: nullIfAbsent(property.apn),
    address: nullIfAbsent(property.address),
    lat: nullIfAbsent(property.lat),
    lon: nullIfAbsent(property.lon),
    acres: nullIfAbsent(property.acres),
  };
}

/** A property record: the property, the parcel stored with it, its card and every match. */
export function propertyJson(property: pipelinev1.Property) {
  return {
    ...propertyHeadJson(property),
    parcel: documentOf(property.parcelJson),
    created_at: property.createdAt,
    pipeline_item: property.pipelineItem ? cardJson(property.pipelineItem) : null,
    buy_box_matches: property.buyBoxMatches.map(buyBoxMatchJson),
  };
}

/** GET /v1/properties/{id}: `{"property","deep_screen","contacts","diligence"}` (D28). */
export function propertyPageJson(page: pipelinev1.GetPropertyResponse) {
  const { contacts, diligence } = propertyDiligenceJson(page.diligence);
  return {
    property: propertyJson(page.property!),
    deep_screen: page.deepScreen ? deepScreenJson(page.deepScreen) : null,
    contacts,
    diligence,
  };
}
