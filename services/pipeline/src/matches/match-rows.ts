// The buy-box match rows (D19, D28): one per property and spec_hash, holding the deep screen.
// Written here only, for a promotion (one row) and a lead import or delivery (many), so both write
// the same columns from the same input.

import { sql } from 'kysely';
import { encodeRows, ensureByKey, idsBy, type BulkEnsured } from '../leads/bulk-rows.js';
import type { PipelineTransaction } from '../schema.js';

/** One match as its writers give it. */
export interface MatchRow {
  propertyId: string;
  buyBoxId: string;
  buyBox: string;
  specHash: string;
  queryHash: string;
  vintageId: string;
  source: 'ranked' | 'direct';
  verdict: string;
  score: number;
  eligible: boolean;
  appliedSpec: unknown;
  /** The screen's result; a RawJson is stored as it is. */
  evaluation: unknown;
  failed: unknown;
}

/** Buy-box matches, one per property and spec_hash (D19), all of one spec; answered by property id. */
export async function ensureMatches(trx: PipelineTransaction, tenantId: string, inputs: MatchRow[]): Promise<Map<string, BulkEnsured>> {
  const specHash = inputs[0]?.specHash;
  return ensureByKey(
    inputs,
    (input) => input.propertyId,
    async (propertyIds) => {
      const rows = await trx
        .selectFrom('buy_box_matches')
        .select(['id', 'property_id'])
        .where('spec_hash', '=', specHash)
        .where((eb) => eb('property_id', '=', eb.fn.any(eb.val(propertyIds))))
        .execute();
      return idsBy(rows, (row) => row.property_id);
    },
    async (fresh) => {
      const rows = fresh.map((input) => ({
        property_id: input.propertyId,
        buy_box_id: input.buyBoxId,
        buy_box: input.buyBox,
        spec_hash: input.specHash,
        query_hash: input.queryHash,
        vintage_id: input.vintageId,
        source: input.source,
        verdict: input.verdict,
        score: input.score,
        eligible: input.eligible,
        applied_spec: input.appliedSpec,
        evaluation: input.evaluation,
        failed: input.failed,
      }));
      // SQL text: the rows travel as one JSON parameter (bulk-rows.ts says why).
      const { rows: inserted } = await sql<{ id: string; property_id: string }>`
        insert into pipeline.buy_box_matches (tenant_id, property_id, buy_box_id, buy_box, spec_hash, query_hash, vintage_id, source, verdict, score, eligible, applied_spec, evaluation, failed)
        select ${tenantId}, property_id, buy_box_id, buy_box, spec_hash, query_hash, vintage_id, source, verdict, score, eligible, applied_spec, evaluation, failed
        from jsonb_to_recordset(${encodeRows(rows)}::jsonb) as r(
          property_id uuid, buy_box_id uuid, buy_box text, spec_hash text, query_hash text, vintage_id uuid, source text,
          verdict text, score double precision, eligible boolean, applied_spec jsonb, evaluation jsonb, failed jsonb)
        on conflict (property_id, spec_hash) do nothing
        returning id, property_id`.execute(trx);
      return idsBy(inserted, (row) => row.property_id);
    },
  );
}

/** One match (a promotion), created or found: the same writer as an import's. */
export async function ensureMatch(trx: PipelineTransaction, tenantId: string, input: MatchRow): Promise<BulkEnsured> {
  return (await ensureMatches(trx, tenantId, [input])).get(input.propertyId)!;
}
