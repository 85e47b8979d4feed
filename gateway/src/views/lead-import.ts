import type { pipelinev1 } from '@landscreen/proto';
import { nullIfAbsent } from '@landscreen/rpc';

/** A spreadsheet cell as text: a number becomes its text, null or absent nothing. */
export const textCell = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;

/** A row of the import report carries the fields of its status only (schemas/leads.ts). */
export function importReportJson(answer: pipelinev1.ImportLeadsResponse) {
  const summary = answer.summary!;
  return {
    market: answer.market,
    vintage_id: answer.vintageId,
    rows: answer.rows.map((row) => ({
      row: row.row,
      ref: nullIfAbsent(row.ref),
      status: row.status,
      ...(row.matchedBy !== undefined && { matched_by: row.matchedBy }),
      ...(row.parcelKey !== undefined && { parcel_key: row.parcelKey }),
      ...(row.propertyId !== undefined && { property_id: row.propertyId }),
      ...(row.pipelineItemId !== undefined && { pipeline_item_id: row.pipelineItemId }),
      ...(row.verdict !== undefined && { verdict: row.verdict, score: row.score, eligible: row.eligible }),
      ...(row.status === 'ambiguous' && {
        candidates: row.candidates.map((candidate) => ({
          parcel_key: candidate.parcelKey,
          apn: nullIfAbsent(candidate.apn),
          address: nullIfAbsent(candidate.address),
          acres: nullIfAbsent(candidate.acres),
        })),
      }),
      ...(row.reason !== undefined && { reason: row.reason }),
    })),
    summary: {
      resolved: summary.resolved,
      ambiguous: summary.ambiguous,
      not_found: summary.notFound,
      invalid: summary.invalid,
      properties_created: summary.propertiesCreated,
      pipeline_items_created: summary.pipelineItemsCreated,
    },
  };
}
