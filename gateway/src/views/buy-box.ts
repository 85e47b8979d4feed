import { type discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';

const { buyBoxSpecJson, scalarJson, stringsJson } = discoveryjson;

/** D9: a buy-box record: id, name, description, spec, spec_hash, created_at, updated_at. */
export function buyBoxJson(box: discoveryv1.BuyBox | undefined): string {
  if (!box) return 'null';
  return (
    `{"id":${JSON.stringify(box.id)},"name":${JSON.stringify(box.name)},"description":${scalarJson(box.description)},` +
    `"spec":${buyBoxSpecJson(box.spec)},"spec_hash":${JSON.stringify(box.specHash)},` +
    `"created_at":${isoTime(box.createdAt)},"updated_at":${isoTime(box.updatedAt)}}`
  );
}

/** The tenant's buy boxes as a JSON array of records. */
export function buyBoxListJson(boxes: readonly discoveryv1.BuyBox[]): string {
  return `[${boxes.map(buyBoxJson).join(',')}]`;
}

/** D12: a parsed text as {"draft": DiscoveryDraft, "warnings": [string]}. */
export function parsedBuyBoxJson(answer: discoveryv1.ParseBuyBoxResponse): string {
  return `{"draft":${buyBoxSpecJson(answer.draft)},"warnings":${stringsJson(answer.warnings)}}`;
}

/** A time as the record has always printed it: JavaScript's ISO form, milliseconds and "Z". */
function isoTime(time: discoveryv1.BuyBox['createdAt']): string {
  return time ? JSON.stringify(new Date(Number(time.seconds) * 1000 + Math.floor(time.nanos / 1_000_000)).toISOString()) : 'null';
}
