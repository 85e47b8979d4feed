import { type discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';

const { JsonChunks, writeParcelCandidate } = discoveryjson;

/** The ParcelResolveResponse of a Resolve answer (D17): status, market, vintage and candidates. */
export function parcelResolveJson(answer: discoveryv1.ResolveResponse): Uint8Array {
  const out = new JsonChunks().write(
    `{"status":${JSON.stringify(answer.status)},"market":${JSON.stringify(answer.market)},"market_id":${JSON.stringify(answer.marketId)},` +
      `"vintage_id":${JSON.stringify(answer.vintageId)},"candidates":[`,
  );
  answer.candidates.forEach((candidate, at) => {
    if (at > 0) out.write(',');
    writeParcelCandidate(out, candidate);
  });
  out.write(']}');
  return out.bytes();
}
