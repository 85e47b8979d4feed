import type { HandlerContext } from '@connectrpc/connect';
import type { pipelinev1 } from '@landscreen/proto';
import { absentIfNull, isUuid, notFound, onBehalfOf, requireCaller } from '@landscreen/rpc';
import { oneCard } from '../board/items.js';
import type { PipelineContext } from '../context.js';
import { storedMustEvidence, storedSpecMessage } from '../messages/stored-spec.js';

const iso = (value: Date) => new Date(value).toISOString();
/** A stored jsonb document as the UTF-8 JSON text discovery answered (node-postgres parsed it). */
const documentBytes = (value: unknown): Uint8Array => Buffer.from(JSON.stringify(value ?? null), 'utf8');

/**
 * D28: the property page — the property with its card, the deep screen stored at promotion
 * (the latest buy-box match first, every match listed), and from diligence its contacts and the
 * customer-readable result. Reads only: no provider call, no job advanced.
 */
export function propertyHandlers(context: PipelineContext) {
  return {
    async getProperty(request: pipelinev1.GetPropertyRequest, call: HandlerContext): Promise<pipelinev1.GetPropertyResponse> {
      const { tenantId } = requireCaller(call);
      const missing = notFound('property_not_found', `No property "${request.propertyId}" in your organization.`);
      if (!isUuid(request.propertyId)) throw missing;
      const property = await context.db.selectFrom('properties').selectAll().where('id', '=', request.propertyId).where('tenant_id', '=', tenantId).executeTakeFirst();
      if (!property) throw missing;
      const [matches, card, diligence] = await Promise.all([
        context.db.selectFrom('buy_box_matches').selectAll().where('property_id', '=', property.id).orderBy('created_at', 'desc').orderBy('id').execute(),
        oneCard(context.db, tenantId, { propertyId: property.id }),
        context.diligence.getPropertyDiligence({ propertyId: property.id }, onBehalfOf(call)),
      ]);
      const screens: pipelinev1.BuyBoxMatch[] = matches.map((match) => ({
        $typeName: 'landscreen.pipeline.v1.BuyBoxMatch',
        id: match.id,
        buyBox: match.buy_box,
        buyBoxId: match.buy_box_id,
        specHash: match.spec_hash,
        queryHash: match.query_hash,
        vintageId: match.vintage_id,
        source: match.source,
        verdict: match.verdict,
        score: match.score,
        eligible: match.eligible,
        failed: storedMustEvidence(match.failed),
        screenedAt: iso(match.created_at),
      }));
      const latest = matches[0];
      return {
        $typeName: 'landscreen.pipeline.v1.GetPropertyResponse',
        property: {
          $typeName: 'landscreen.pipeline.v1.Property',
          id: property.id,
          market: property.market,
          marketId: property.market_id,
          parcelKey: property.parcel_key,
          vintageId: property.vintage_id,
          apn: absentIfNull(property.apn),
          address: absentIfNull(property.address),
          lat: absentIfNull(property.lat),
          lon: absentIfNull(property.lon),
          acres: absentIfNull(property.acres),
          parcelJson: documentBytes(property.parcel),
          createdAt: iso(property.created_at),
          pipelineItem: card,
          buyBoxMatches: screens,
        },
        deepScreen: latest && {
          $typeName: 'landscreen.pipeline.v1.DeepScreen',
          match: screens[0],
          appliedSpec: storedSpecMessage(latest.applied_spec),
          evaluationJson: documentBytes(latest.evaluation),
        },
        diligence,
      };
    },
  };
}
