import { JsonChunks, mustEvidenceJson, writeDiscoveryResult } from '@landscreen/discovery-json';
import type { discoveryv1 } from '@landscreen/proto';

/**
 * GET /v2/parcels/{parcel_key}/evaluation (api-schemas ParcelEvaluation): the ranking it was
 * evaluated in, the result with its geometry and evidence, and the must-haves it failed. Written
 * as bytes, with the result's facts and geometry spliced as discovery encoded them.
 */
export function parcelEvaluationJson(answer: discoveryv1.EvaluateParcelResponse): Uint8Array {
  const out = new JsonChunks().write(
    `{"market":${JSON.stringify(answer.market)},"vintage_id":${JSON.stringify(answer.vintageId)},"query_hash":${JSON.stringify(answer.queryHash)},` +
      `"buy_box":${JSON.stringify(answer.buyBox)},"eligible":${answer.eligible},"result":`,
  );
  writeDiscoveryResult(out, answer.result!, { geometry: true });
  out.write(`,"failed":${mustEvidenceJson(answer.failed)}}`);
  return out.bytes();
}
