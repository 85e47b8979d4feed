import type { HandlerContext } from '@connectrpc/connect';
import type { pipelinev1 } from '@landscreen/proto';
import { absentIfNull, issue, isUuid, requireCaller, validationError } from '@landscreen/rpc';
import { storedScoreBreakdown, storedSpecMessage } from '../messages/stored-spec.js';
import type { PipelineContext } from '../context.js';
import type { PipelineDb } from '../schema.js';

/** Properties one call answers: a delivery holds at most 500 leads (D30). */
export const MAX_REPORT_PROPERTIES = 500;

type ReportRow = Awaited<ReturnType<typeof reportRows>>[number];

/**
 * Each property with its board stage and, of its screens, the one under `specHash` when it has
 * one, else its latest. The parts of the stored JSON a report reads are extracted by PostgreSQL
 * (`jsonb_extract_path`, the function form of `->`), not sent whole.
 */
function reportRows(db: PipelineDb, tenantId: string, ids: string[], specHash: string | null) {
  return db
    .selectFrom('properties as p')
    .leftJoin('items as i', 'i.property_id', 'p.id')
    .leftJoinLateral(
      (eb) =>
        eb
          .selectFrom('buy_box_matches as b')
          .selectAll()
          .whereRef('b.property_id', '=', 'p.id')
          .orderBy((eb) => eb(eb('b.spec_hash', '=', eb.val(specHash)), 'is', true), 'desc')
          .orderBy('b.created_at', 'desc')
          .orderBy('b.id')
          .limit(1)
          .as('m'),
      (join) => join.onTrue(),
    )
    .select((eb) => [
      'p.id', 'p.market', 'p.market_id', 'p.parcel_key', 'p.vintage_id', 'p.apn', 'p.address', 'p.lat', 'p.lon', 'p.acres', 'p.created_at',
      eb.fn('jsonb_extract_path', ['p.parcel', eb.val('typed')]).as('typed'),
      eb.fn('jsonb_extract_path', ['p.parcel', eb.val('geometry')]).as('geometry'),
      'i.stage',
      'm.buy_box', 'm.buy_box_id', 'm.spec_hash', 'm.vintage_id as match_vintage_id', 'm.source', 'm.verdict', 'm.score', 'm.eligible',
      'm.created_at as screened_at', 'm.applied_spec',
      eb.fn('jsonb_extract_path', ['m.evaluation', eb.val('score_breakdown')]).as('score_breakdown'),
    ])
    .where('p.tenant_id', '=', tenantId)
    .where((eb) => eb('p.id', '=', eb.fn.any(eb.val(ids))))
    .execute();
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
      const rows = await reportRows(context.db, tenantId, ids, specHash);
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
