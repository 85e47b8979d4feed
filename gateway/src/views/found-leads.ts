import { type discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';

const { scalarJson, stringsJson } = discoveryjson;

/**
 * D29: {"count", "by_verdict"} and, unless the caller asked count_only, "rows" (the ranked
 * parcels without geometry, facts or evidence).
 */
export function foundLeadsJson(answer: discoveryv1.FindLeadsResponse, countOnly: boolean): string {
  const verdicts = answer.byVerdict;
  const summary = `{"count":${answer.count},"by_verdict":{"PURSUE":${verdicts?.pursue ?? 0},"MONITOR":${verdicts?.monitor ?? 0},"HOLD":${verdicts?.hold ?? 0}}`;
  if (countOnly) return `${summary}}`;
  return `${summary},"rows":[${answer.rows.map(leadRowJson).join(',')}]}`;
}

const decoder = new TextDecoder();

/** A lead row; `facts` and `provenance` only when the caller chose facts (D40). */
function leadRowJson(row: discoveryv1.LeadRow): string {
  const chosen = row.factsJson.length === 0 ? '' : `,"facts":${decoder.decode(row.factsJson)},"provenance":${decoder.decode(row.provenanceJson)}`;
  return (
    `{"parcel_key":${JSON.stringify(row.parcelKey)},"apn":${scalarJson(row.apn)},"address":${scalarJson(row.address)},` +
    `"lat":${scalarJson(row.lat)},"lon":${scalarJson(row.lon)},"acres":${scalarJson(row.acres)},` +
    `"score":${JSON.stringify(row.score)},"verdict":${JSON.stringify(row.verdict)},"review_required":${row.reviewRequired},` +
    `"unknowns":${stringsJson(row.unknowns)}${chosen}}`
  );
}
