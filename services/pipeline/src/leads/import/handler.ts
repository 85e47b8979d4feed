import type { HandlerContext } from '@connectrpc/connect';
import type { MessageInitShape } from '@bufbuild/protobuf';
import { ensurePromotionJobs } from '@landscreen/diligence-service/data-access';
import { type discoveryv1, type pipelinev1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import { onBehalfOf, requireCaller } from '@landscreen/rpc';
import type { PipelineContext } from '../../context.js';
import { ensureMatches } from '../../matches/match-rows.js';
import { ensureItems, ensureProperties, RawJson } from '../bulk-rows.js';
import { checkRow, type CheckedRow } from './rows.js';

type Report = MessageInitShape<typeof pipelinev1.ImportRowReportSchema>;

/** Discovery's word for how a row matched, as the report says it (a point resolves to a key). */
const MATCHED_BY: Record<string, string> = { apn: 'apn', address: 'address', address_similar: 'address_similar', parcel_key: 'point' };

/** Fault point inside the import's transaction, after every row is written. */
export const IMPORT_FAULT_BEFORE_COMMIT = 'pipeline.leads.import.before_commit';

/**
 * D30: a lead import. Each row is checked (rows.ts), points are located (LocateParcels: the parcel
 * containing the point, else the nearest within its default radius), then every row is resolved
 * in ONE discovery call (ResolveParcels: APN, address, the point's parcel, similar address — D17)
 * which also screens the parcels against the buy box when one is given. The resolved parcels
 * become properties (insert-or-find on (tenant, parcel_key), as promotion does), with the buy-box
 * match and — with add_to_pipeline — a card and its queued diligence job, in one transaction of
 * set-based statements. A repeated (or concurrent) import finds the same rows and makes nothing.
 */
export function importHandlers(context: PipelineContext) {
  return {
    async importLeads(request: pipelinev1.ImportLeadsRequest, call: HandlerContext) {
      const caller = requireCaller(call);
      const options = onBehalfOf(call);
      const checked = request.rows.map(checkRow);
      const usable = checked.flatMap((row, index) => ('invalid' in row ? [] : [{ index, row }]));

      // Points first: the parcel each falls in is one more key to resolve the row by.
      const withPoint = usable.filter(({ row }) => row.point !== undefined);
      const pointKey = new Map<number, string>();
      if (withPoint.length > 0) {
        const located = await context.discovery.locateParcels({ market: request.market, points: withPoint.map(({ row }) => row.point!) }, options);
        located.locations.forEach((location, i) => {
          if (location.parcel) pointKey.set(withPoint[i]!.index, location.parcel.parcelKey);
        });
      }
      const lookups = usable.map(({ index, row }) => lookupOf(row, pointKey.get(index)));
      // Rows with only a point that lies in no parcel have nothing left to look up by.
      const searchable = usable.filter((_, i) => lookups[i]!.apn || lookups[i]!.address || lookups[i]!.parcelKey);
      const resolved = await context.discovery.resolveParcels(
        // Lean: a prepared vintage's per-fact provenance is tens of KB a parcel, the same for every
        // parcel of it (the property keeps its vintage_id); 10,000 copies would be gigabytes.
        { market: request.market, lookups: searchable.map(({ index, row }) => lookupOf(row, pointKey.get(index))), buyBox: request.buyBox, lean: true },
        options,
      );
      const resolutionOf = new Map<number, discoveryv1.ParcelResolution>(searchable.map(({ index }, i) => [index, resolved.resolutions[i]!]));

      // The distinct parcels resolved, in first-row order.
      const parcels = new Map<string, discoveryv1.ResolvedParcel>();
      for (const resolution of resolutionOf.values()) {
        if (resolution.status !== 'resolved') continue;
        const candidate = resolution.candidates[0]!;
        if (!parcels.has(candidate.parcelKey)) parcels.set(candidate.parcelKey, candidate);
      }
      const screen = resolved.screen;
      const written = await context.db.transaction().execute(async (trx) => {
        const properties = await ensureProperties(
          trx,
          caller.tenantId,
          [...parcels.values()].map((candidate) => ({
            marketId: resolved.marketId,
            market: resolved.market,
            vintageId: resolved.vintageId,
            parcelKey: candidate.parcelKey,
            apn: candidate.apn ?? null,
            address: candidate.address ?? null,
            lat: candidate.lat ?? null,
            lon: candidate.lon ?? null,
            acres: candidate.acres ?? null,
            parcel: new RawJson(discoveryjson.parcelCandidateJson(candidate.parcel!)),
          })),
        );
        const propertyOf = (key: string) => properties.get(key)!.id;
        let matches = new Map<string, { created: boolean }>();
        if (screen) {
          const appliedSpec = discoveryjson.buyBoxSpecValue(screen.appliedSpec);
          matches = await ensureMatches(
            trx,
            caller.tenantId,
            [...parcels.values()].map((candidate) => ({
              propertyId: propertyOf(candidate.parcelKey),
              buyBoxId: screen.buyBoxId,
              buyBox: screen.buyBox,
              specHash: screen.specHash,
              queryHash: screen.queryHash,
              vintageId: resolved.vintageId,
              source: 'direct' as const,
              verdict: candidate.evaluation!.verdict,
              score: candidate.evaluation!.score,
              eligible: candidate.evaluation!.eligible,
              appliedSpec,
              evaluation: new RawJson(discoveryjson.discoveryResultJson(candidate.evaluation!.result!, { geometry: false })),
              failed: discoveryjson.mustEvidenceValues(candidate.evaluation!.failed),
            })),
          );
        }
        let items = new Map<string, { id: string; created: boolean }>();
        if (request.addToPipeline) {
          items = await ensureItems(
            trx,
            caller.tenantId,
            [...parcels.values()].map((candidate) => {
              const propertyId = propertyOf(candidate.parcelKey);
              return {
                propertyId,
                verdict: screen && { buyBox: screen.buyBox, verdict: candidate.evaluation!.verdict, score: candidate.evaluation!.score },
                verdictChanged: matches.get(propertyId)?.created ?? false,
              };
            }),
          );
          // A card that existed got its job when it was made (every way onto the board makes one).
          const carded = [...parcels.values()].filter((candidate) => items.get(propertyOf(candidate.parcelKey))!.created);
          const jobs = carded.map((candidate) => {
            const propertyId = propertyOf(candidate.parcelKey);
            return {
              tenantId: caller.tenantId,
              tenantSlug: caller.tenantSlug,
              propertyId,
              pipelineItemId: items.get(propertyId)!.id,
              marketId: resolved.marketId,
              vintageId: resolved.vintageId,
              parcelKey: candidate.parcelKey,
              parcel: discoveryjson.parcelCandidateValue(candidate.parcel!),
            };
          });
          // A thousand jobs (and their six steps and event each) a statement, as the other rows.
          for (let start = 0; start < jobs.length; start += 1_000) await ensurePromotionJobs(trx, jobs.slice(start, start + 1_000));
        }
        await context.fault(IMPORT_FAULT_BEFORE_COMMIT);
        return { properties, items };
      });

      const summary = { resolved: 0, ambiguous: 0, notFound: 0, invalid: 0, propertiesCreated: 0, pipelineItemsCreated: 0 };
      for (const property of written.properties.values()) if (property.created) summary.propertiesCreated++;
      for (const item of written.items.values()) if (item.created) summary.pipelineItemsCreated++;
      const rows = request.rows.map((row, index): Report => {
        const base = { row: index, ref: row.ref };
        const check = checked[index]!;
        if ('invalid' in check) {
          summary.invalid++;
          return { ...base, status: 'invalid', reason: check.invalid };
        }
        const resolution = resolutionOf.get(index);
        if (!resolution || resolution.status === 'not_found') {
          summary.notFound++;
          return { ...base, status: 'not_found' };
        }
        if (resolution.status === 'ambiguous') {
          summary.ambiguous++;
          return {
            ...base,
            status: 'ambiguous',
            matchedBy: MATCHED_BY[resolution.matchedBy],
            candidates: resolution.candidates.map(({ parcelKey, apn, address, acres }) => ({ parcelKey, apn, address, acres })),
          };
        }
        summary.resolved++;
        const candidate = resolution.candidates[0]!;
        const propertyId = written.properties.get(candidate.parcelKey)!.id;
        return {
          ...base,
          status: 'resolved',
          matchedBy: MATCHED_BY[resolution.matchedBy],
          parcelKey: candidate.parcelKey,
          propertyId,
          pipelineItemId: written.items.get(propertyId)?.id,
          verdict: candidate.evaluation?.verdict,
          score: candidate.evaluation?.score,
          eligible: candidate.evaluation?.eligible,
        };
      });
      return { market: resolved.market, vintageId: resolved.vintageId, rows, summary };
    },
  };
}

function lookupOf(row: CheckedRow, parcelKey: string | undefined): MessageInitShape<typeof discoveryv1.ParcelLookupSchema> {
  return { apn: row.apn, address: row.address, parcelKey };
}
