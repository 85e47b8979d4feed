import type { HandlerContext } from '@connectrpc/connect';
import type { pipelinev1 } from '@landscreen/proto';
import { isUuid, jsonBytes, notFound, onBehalfOf, parseJsonBytes, requireCaller } from '@landscreen/rpc';
import { cardJson } from '../board/items.js';
import type { PipelineContext } from '../context.js';
import { pipelineDb } from '../schema.js';

const iso = (value: Date) => new Date(value).toISOString();

/**
 * D28: the property page — the property with its card, the deep screen stored at promotion
 * (the latest buy-box match first, every match listed), and from diligence its contacts and the
 * customer-readable result. Reads only: no provider call, no job advanced.
 */
export function propertyHandlers(context: PipelineContext) {
  return {
    async getProperty(request: pipelinev1.GetPropertyRequest, call: HandlerContext) {
      const { tenantId } = requireCaller(call);
      const missing = notFound('property_not_found', `No property "${request.propertyId}" in your organization.`);
      if (!isUuid(request.propertyId)) throw missing;
      const db = pipelineDb(context.db);
      const property = await db.selectFrom('properties').selectAll().where('id', '=', request.propertyId).where('tenant_id', '=', tenantId).executeTakeFirst();
      if (!property) throw missing;
      const [matches, card, diligence] = await Promise.all([
        db.selectFrom('buy_box_matches').selectAll().where('property_id', '=', property.id).orderBy('created_at', 'desc').orderBy('id').execute(),
        cardJson(context.db, tenantId, { propertyId: property.id }),
        context.diligence.getPropertyDiligence({ propertyId: property.id }, onBehalfOf(call)),
      ]);
      const screens = matches.map((match) => ({
        buy_box_match_id: match.id,
        buy_box: match.buy_box,
        buy_box_id: match.buy_box_id,
        spec_hash: match.spec_hash,
        query_hash: match.query_hash,
        vintage_id: match.vintage_id,
        source: match.source,
        verdict: match.verdict,
        score: match.score,
        eligible: match.eligible,
        failed: match.failed,
        applied_spec: match.applied_spec,
        evaluation: match.evaluation,
        screened_at: iso(match.created_at),
      }));
      const { diligence: result, contacts } = parseJsonBytes<{ diligence: unknown; contacts: unknown[] }>(diligence.bodyJson);
      return {
        bodyJson: jsonBytes({
          property: {
            id: property.id,
            market: property.market,
            market_id: property.market_id,
            parcel_key: property.parcel_key,
            vintage_id: property.vintage_id,
            apn: property.apn,
            address: property.address,
            lat: property.lat,
            lon: property.lon,
            acres: property.acres,
            parcel: property.parcel,
            created_at: iso(property.created_at),
            pipeline_item: card === undefined ? null : JSON.parse(card),
            buy_box_matches: screens.map(({ applied_spec: _spec, evaluation: _evaluation, ...summary }) => summary),
          },
          deep_screen: screens[0] ?? null,
          contacts: contacts ?? [],
          diligence: result ?? null,
        }),
      };
    },
  };
}
