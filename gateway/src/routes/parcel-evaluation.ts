import { Type } from '@sinclair/typebox';
import { ParcelEvaluation } from '@landscreen/api-schemas';
import { Str, TenantHeaders } from '../schemas/common.js';
import { asCaller } from './call.js';
import { errors, json, SIGNED_IN } from './responses.js';
import { READERS } from './roles.js';
import type { RouteDef } from './route.js';
import { parcelEvaluationJson } from '../views/parcel-evaluation.js';

export const parcelEvaluationRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/v2/parcels/{parcel_key}/evaluation',
    operationId: 'parcelEvaluation',
    summary: 'One parcel evaluated against a buy box, with the evidence of every rule',
    description:
      'The parcel of the current vintage of the buy box\'s market, evaluated as discovery ranks it (D13-D16) whether it is eligible or not: what the console shows when a parcel is clicked on the map. Reads only.',
    tag: 'discovery',
    security: 'session',
    roles: READERS,
    request: {
      headers: TenantHeaders,
      path: Type.Object({ parcel_key: Str(1, 255, { description: 'The parcel\'s key within the vintage.' }) }),
      query: Type.Object({ buy_box: Str(1, 255, { description: 'The saved buy box to evaluate against.' }) }),
    },
    responses: {
      200: json('The evaluation.', ParcelEvaluation),
      ...errors([...SIGNED_IN, 404, 409], { 404: 'buy_box_not_found, market_not_found or parcel_not_found.', 409: 'market_not_loaded.' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const answer = await deps.clients.discovery.evaluateParcel({ buyBox: request.query.buy_box, parcelKey: request.path.parcel_key }, asCaller(caller, raw.id));
      return { status: 200, json: parcelEvaluationJson(answer) };
    },
  },
];
