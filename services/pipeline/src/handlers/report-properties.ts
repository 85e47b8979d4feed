import type { HandlerContext } from '@connectrpc/connect';
import { sql } from 'kysely';
import { absentIfNull, type pipelinev1 } from '@landscreen/proto';
import { issue, isUuid, requireCaller, validationError } from '@landscreen/rpc';
import { storedScoreBreakdown, storedSpecMessage } from '../messages/stored-spec.js';
import type { PipelineContext } from '../context.js';

/** Properties one call answers: a delivery holds at most 500 leads (D30). */
export const MAX_REPORT_PROPERTIES = 500;

interface ReportRow {
  id: string;
  market: string;
  market_id: string;
  parcel_key: string;
  vintage_id: string;
  apn: string | null;
  address: string | null;
  lat: number | null;
  lon: number | null;
  acres: number | null;
  created_at: Date;
  typed: unknown;
  geometry: unknown;
  stage: string | null;
  buy_box: string | null;
  buy_box_id: string | null;
  spec_hash: string | null;
  match_vintage_id: string | null;
  source: string | null;
  verdict: string | null;
  score: number | null;
  eligible: boolean | null;
  screened_at: Date | null;
  applied_spec: unknown;
  score_breakdown: unknown;
}

/**
 * D30: the property pages of many properties reduced to what a PDF report prints, in one query.
 * The parcel (a ParcelCandidate with every fact of its vintage and their provenance) and the
 * evaluation are large JSON documents; PostgreSQL picks the few parts a report reads, so a
 * 100-lead delivery does not move and parse 100 of each. Tenant-scoped by the WHERE clause.
 */
export function reportPropertyHandlers(context: PipelineContext) {
  return {
    async getReportProperties(request: pipelinev1.GetReportPropertiesRequest, call: HandlerContext) {
      const { tenantId } = requireCaller(call);
      if (request.propertyIds.length > MAX_REPORT_PROPERTIES) {
        throw validationError([issue.valueError(['body', 'property_ids'], request.propertyIds.length, `at most ${MAX_REPORT_PROPERTIES} properties a call`)]);
      }
      const ids = [...new Set(request.propertyIds.filter(isUuid))];
      if (ids.length === 0) return { properties: [] };
      const specHash = request.specHash ?? null;
      const { rows } = await sql<ReportRow>`
        select p.id, p.market, p.market_id, p.parcel_key, p.vintage_id, p.apn, p.address, p.lat, p.lon, p.acres, p.created_at,
               p.parcel -> 'typed' as typed, p.parcel -> 'geometry' as geometry,
               i.stage,
               m.buy_box, m.buy_box_id, m.spec_hash, m.vintage_id as match_vintage_id, m.source, m.verdict, m.score, m.eligible,
               m.created_at as screened_at, m.applied_spec, m.evaluation -> 'score_breakdown' as score_breakdown
          from pipeline.properties p
          left join pipeline.items i on i.property_id = p.id
          left join lateral (
            select * from pipeline.buy_box_matches b
             where b.property_id = p.id
             order by (b.spec_hash = ${specHash}) is true desc, b.created_at desc, b.id
             limit 1
          ) m on true
         where p.tenant_id = ${tenantId} and p.id = any(${ids}::uuid[])`.execute(context.db);
      return { properties: rows.map(reportProperty) };
    },
  };
}

const iso = (value: Date) => new Date(value).toISOString();
/** A jsonb part PostgreSQL extracted, as UTF-8 JSON text; `missing` when it is null. */
const partBytes = (value: unknown, missing: string): Uint8Array => Buffer.from(value === null || value === undefined ? missing : JSON.stringify(value), 'utf8');

function reportProperty(row: ReportRow): pipelinev1.ReportProperty {
  return {
    $typeName: 'landscreen.pipeline.v1.ReportProperty',
    id: row.id,
    market: row.market,
    marketId: row.market_id,
    parcelKey: row.parcel_key,
    vintageId: row.vintage_id,
    apn: absentIfNull(row.apn),
    address: absentIfNull(row.address),
    lat: absentIfNull(row.lat),
    lon: absentIfNull(row.lon),
    acres: absentIfNull(row.acres),
    typedFactsJson: partBytes(row.typed, '{}'),
    geometryJson: partBytes(row.geometry, ''),
    createdAt: iso(row.created_at),
    stage: absentIfNull(row.stage),
    screen:
      row.verdict === null
        ? undefined
        : {
            $typeName: 'landscreen.pipeline.v1.ReportScreen',
            buyBox: row.buy_box!,
            buyBoxId: row.buy_box_id!,
            specHash: row.spec_hash!,
            vintageId: row.match_vintage_id!,
            source: row.source!,
            verdict: row.verdict,
            score: row.score!,
            eligible: row.eligible!,
            appliedSpec: storedSpecMessage(row.applied_spec),
            scoreBreakdown: storedScoreBreakdown(row.score_breakdown),
            screenedAt: iso(row.screened_at!),
          },
  };
}
