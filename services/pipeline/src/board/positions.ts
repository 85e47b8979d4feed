import { sql } from 'kysely';
import type { PipelineTransaction } from '../schema.js';
import { stageRank, type Stage } from './stages.js';

/**
 * Serialises moves on one tenant's board for the rest of the transaction: a move renumbers a
 * stage, which must not interleave with another move. (Adding a card does not take it: see
 * nextPosition.)
 */
export async function lockBoard(trx: PipelineTransaction, tenantId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`pipeline.board:${tenantId}`}, 0))`.execute(trx);
}

/** The cards of one stage of a tenant's board, by the board index (tenant_id, stage_rank, …). */
const inStage = (tenantId: string, stage: Stage) => sql`tenant_id = ${tenantId} and stage_rank = ${stageRank(stage)}`;

/** D18: a card added to a stage goes last — one past the stage's highest position. */
export const nextPosition = (tenantId: string, stage: Stage) =>
  sql<number>`(select coalesce(max(position) + 1, 0) from pipeline.items where ${inStage(tenantId, stage)})`;

/** Rewrites a stage's positions as 0..n-1 in its current order (ties from concurrent adds resolved by id). */
async function renumber(trx: PipelineTransaction, tenantId: string, stage: Stage): Promise<void> {
  await sql`
    update pipeline.items set position = ranked.rank
    from (
      select id, (row_number() over (order by position, id) - 1)::int as rank
      from pipeline.items where ${inStage(tenantId, stage)}
    ) ranked
    where pipeline.items.id = ranked.id and pipeline.items.position <> ranked.rank`.execute(trx);
}

export interface Placement {
  id: string;
  tenant_id: string;
  stage: Stage;
}

/**
 * Moves a card to `stage` at `position` (0-based, clamped to the end; omitted: last, D18).
 * Called with the board locked. Both stages are renumbered first, so positions are exact ranks;
 * then the cards at and after the target shift down by one. `at` is the card's new updated_at.
 */
export async function placeItem(trx: PipelineTransaction, item: Placement, stage: Stage, position: number | undefined, at: Date): Promise<void> {
  if (stage === item.stage && position === undefined) return;
  await renumber(trx, item.tenant_id, item.stage);
  if (stage !== item.stage) await renumber(trx, item.tenant_id, stage);
  const others = await trx
    .selectFrom('items')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('tenant_id', '=', item.tenant_id)
    .where('stage_rank', '=', stageRank(stage))
    .where('id', '<>', item.id)
    .executeTakeFirstOrThrow();
  const target = Math.min(position ?? Number.MAX_SAFE_INTEGER, Number(others.count));
  const current = await trx.selectFrom('items').select('position').where('id', '=', item.id).executeTakeFirstOrThrow();
  // Close the gap the card leaves, then open one where it lands.
  if (stage === item.stage) {
    await trx.updateTable('items').set((eb) => ({ position: eb('position', '-', 1) }))
      .where('tenant_id', '=', item.tenant_id).where('stage_rank', '=', stageRank(stage)).where('position', '>', current.position).execute();
  }
  await trx.updateTable('items').set((eb) => ({ position: eb('position', '+', 1) }))
    .where('tenant_id', '=', item.tenant_id).where('stage_rank', '=', stageRank(stage)).where('position', '>=', target).where('id', '<>', item.id).execute();
  await trx.updateTable('items').set({ stage, position: target, updated_at: at }).where('id', '=', item.id).execute();
}
