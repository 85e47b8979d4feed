import { advisoryLock } from '../advisory-lock.js';
import type { PipelineTransaction } from '../schema.js';
import { stageRank, type Stage } from './stages.js';

/**
 * Serialises moves on one tenant's board for the rest of the transaction: a move renumbers a
 * stage, which must not interleave with another move. (Adding a card does not take it: see
 * nextPosition.)
 */
export async function lockBoard(trx: PipelineTransaction, tenantId: string): Promise<void> {
  await advisoryLock(trx, `pipeline.board:${tenantId}`);
}

/** The cards of one stage of a tenant's board, by the board index (tenant_id, stage_rank, …). */
const inStage = (trx: PipelineTransaction, tenantId: string, stage: Stage) =>
  trx.selectFrom('items').where('tenant_id', '=', tenantId).where('stage_rank', '=', stageRank(stage));

/** D18: a card added to a stage goes last — one past the stage's highest position (a subquery of the insert). */
export const nextPosition = (trx: PipelineTransaction, tenantId: string, stage: Stage) =>
  inStage(trx, tenantId, stage).select((eb) => eb.fn.coalesce(eb(eb.fn.max('position'), '+', eb.lit(1)), eb.lit(0)).as('position'));

/** Rewrites a stage's positions as 0..n-1 in its current order (ties from concurrent adds resolved by id). */
async function renumber(trx: PipelineTransaction, tenantId: string, stage: Stage): Promise<void> {
  await trx
    .updateTable('items')
    .from(
      inStage(trx, tenantId, stage)
        .select((eb) => ['id', eb.cast<number>(eb(eb.fn.agg<number>('row_number').over((over) => over.orderBy('position').orderBy('id')), '-', eb.lit(1)), 'integer').as('rank')])
        .as('ranked'),
    )
    .set((eb) => ({ position: eb.ref('ranked.rank') }))
    .whereRef('items.id', '=', 'ranked.id')
    .whereRef('items.position', '<>', 'ranked.rank')
    .execute();
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
