import type { MessageInitShape } from '@bufbuild/protobuf';
import { Code, createClient, type Client, type HandlerContext, type Transport } from '@connectrpc/connect';
import { FIELDS } from '@landscreen/field-catalog';
import { discoveryv1, type catalogv1 } from '@landscreen/proto';
import { onBehalfOf, serviceError } from '@landscreen/rpc';
import { locationResults } from '../layers/field-answer.js';
import type { LayerCache } from '../layers/layer-cache.js';

type Response = MessageInitShape<typeof catalogv1.GetUtilityFindingsResponseSchema>;

/** The catalog's utility layer, in catalog order: the utility-side facts of D31. */
export const UTILITY_FIELDS = FIELDS.filter((field) => field.layer === 'utilities').map((field) => field.name);

/**
 * The utility fields of a parcel in a vintage, answered by the engine at the parcel's point. The
 * parcel comes from discovery (which checks the caller's entitlement and answers 404 for an
 * unknown parcel or vintage); its facts stored in the vintage are not read, so the findings are
 * those of the layers current now.
 */
export function getUtilityFindingsHandler(layers: LayerCache, discoveryTransport: () => Transport) {
  // Made on first use: a catalog service built without peers (its own tests) still starts.
  let discovery: Client<typeof discoveryv1.DiscoveryService> | undefined;
  return async (request: catalogv1.GetUtilityFindingsRequest, call: HandlerContext): Promise<Response> => {
    discovery ??= createClient(discoveryv1.DiscoveryService, discoveryTransport());
    const found = await discovery.getParcel({ vintageId: request.vintageId, parcelKey: request.parcelKey }, onBehalfOf(call));
    const parcel = found.parcel;
    const point = parcel?.lat !== undefined && parcel.lon !== undefined ? { lat: parcel.lat, lon: parcel.lon } : null;
    // A parcel imported without a point has nowhere to be evaluated: said, not a 500.
    if (!point) throw serviceError(Code.FailedPrecondition, 'parcel_without_location', `Parcel "${request.parcelKey}" has no location to evaluate the utility fields at.`);
    const { engine } = await layers.current();
    const [result] = locationResults(await engine.evaluateLoaded([point], UTILITY_FIELDS), [request.parcelKey]);
    return {
      market: found.market,
      vintageId: found.vintageId,
      parcelKey: request.parcelKey,
      location: { lat: point.lat, lon: point.lon, id: request.parcelKey },
      findings: result.answers,
    };
  };
}

