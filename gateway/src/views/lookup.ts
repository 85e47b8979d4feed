import type { catalogv1 } from '@landscreen/proto';
import { ValuesWriter } from '@landscreen/fetch-results';

/**
 * POST /v1/lookup's body (docs/decisions.md, "POST /v1/lookup"):
 * {"query","match","parcel"? ({"values","null_reasons"}, with include_parcel),"credits"}.
 */
export function lookupJson(answer: catalogv1.LookupResponse): string {
  const query = answer.query;
  const match = answer.match;
  const parcel = answer.parcel ? `,"parcel":{${new ValuesWriter(answer.parcel.fields).write(answer.parcel.values)}}` : '';
  const queryJson = JSON.stringify({
    address: query?.address ?? null,
    lat: query?.lat ?? null,
    lon: query?.lon ?? null,
    market: query?.market ?? null,
    include_parcel: query?.includeParcel ?? false,
    radius_m: query?.radiusM ?? null,
  });
  const matchJson = JSON.stringify({
    lat: match?.lat ?? null,
    lon: match?.lon ?? null,
    address: match?.address ?? null,
    score: match?.score ?? null,
    match_type: match?.matchType ?? null,
    market: match?.market ?? null,
    parcel_key: match?.parcelKey ?? null,
  });
  const credits = `{"charged":${answer.credits?.charged ?? 0n},"balance":${answer.credits?.balance ?? 0n}}`;
  return `{"query":${queryJson},"match":${matchJson}${parcel},"credits":${credits}}`;
}
