import type { discoveryv1 } from '@landscreen/proto';
import { JsonChunks, scalarJson, stringJson } from './json-chunks.js';

/**
 * Writes a ParcelCandidate as the API spec's JSON: the parcel, its geometry and its facts split
 * as imported (spliced as the service encoded them), then the provenance unless the message
 * leaves it out (a lean ResolveParcels candidate has no `provenance` key).
 */
export function writeParcelCandidate(out: JsonChunks, parcel: discoveryv1.ParcelCandidate): void {
  out.write(
    `{"market":${stringJson(parcel.market)},"vintage_id":${stringJson(parcel.vintageId)},"parcel_key":${stringJson(parcel.parcelKey)},` +
      `"apn":${scalarJson(parcel.apn)},"address":${scalarJson(parcel.address)},"lat":${scalarJson(parcel.lat)},"lon":${scalarJson(parcel.lon)},"geometry":`,
  );
  out.raw(parcel.geometryJson);
  out.write(',"typed":').raw(parcel.typedJson, '{}');
  out.write(',"free_facts":').raw(parcel.freeFactsJson, '{}');
  out.write(',"derived":').raw(parcel.derivedJson, '{}');
  if (parcel.provenanceJson.length > 0) out.write(',"provenance":').raw(parcel.provenanceJson);
  out.write('}');
}

/** A ParcelCandidate as JSON text (what a property stores as its `parcel`). */
export function parcelCandidateJson(parcel: discoveryv1.ParcelCandidate): string {
  const out = new JsonChunks();
  writeParcelCandidate(out, parcel);
  return out.toString();
}
