import { create, type MessageInitShape } from '@bufbuild/protobuf';
import type { HandlerContext } from '@connectrpc/connect';
import { catalogv1 } from '@landscreen/proto';

type LocationResultInit = MessageInitShape<typeof catalogv1.LocationResultSchema>;

/** The EvaluatePoints implementation, called in-process (the engine and, for parcel fields, LocateParcels). */
export type EvaluatePointsFn = (request: catalogv1.EvaluatePointsRequest, call: HandlerContext) => Promise<{ results: LocationResultInit[] }>;

export interface EvaluateInput {
  locations: readonly { lat: number; lon: number }[];
  fields: readonly string[];
  /** Where parcel_record fields look for the parcel (LocateParcels' market and radius). */
  parcelMarket?: string;
  parcelRadiusM?: number;
}

/** Evaluates through the same code as the EvaluatePoints RPC, on behalf of the same caller. */
export async function evaluateLocations(evaluate: EvaluatePointsFn, input: EvaluateInput, call: HandlerContext): Promise<LocationResultInit[]> {
  const request = create(catalogv1.EvaluatePointsRequestSchema, {
    locations: input.locations.map(({ lat, lon }) => ({ lat, lon })),
    fields: [...input.fields],
    parcelMarket: input.parcelMarket,
    parcelRadiusM: input.parcelRadiusM,
  });
  return (await evaluate(request, call)).results;
}
