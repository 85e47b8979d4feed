import { sql, type Kysely } from 'kysely';
import { pipelineDb } from '../schema.js';
import type { Stage } from './stages.js';

/**
 * Serialises the writes to one tenant's board for the rest of the transaction. Positions are
 * dense per stage (0..n-1); every insert and move renumbers neighbours, which is only correct if
 * two of them never interleave.
 */
export async function lockBoard(trx: Kysely<any>, tenantId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtextextended(${`pipeline.board:${tenantId}`}, 0))`.execute(trx);
}

/** How many cards a stage holds: the position a card added to it takes (D18: last). */
export async function stageSize(trx: Kysely<any>, tenantId: string, stage: Stage, exceptItemId?: string): Promise<number> {
  let query = pipelineDb(trx)
    .selectFrom('items')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('tenant_id', '=', tenantId)
    .where('stage', '=', stage);
  if (exceptItemId) query = query.where('id', '<>', exceptItemId);
  return Number((await query.executeTakeFirstOrThrow()).count);
}

export interface Placement {
  id: string;
  tenant_id: string;
  stage: Stage;
  position: number;
}

/**
 * Moves a card to `stage` at `position` (0-based, clamped to the end; omitted: last, D18), closing
 * the gap it leaves and opening one where it lands. Called with the board locked.
 */
export async function placeItem(trx: Kysely<any>, item: Placement, stage: Stage, position?: number): Promise<number> {
  if (stage === item.stage && position === undefined) return item.position;
  const db = pipelineDb(trx);
  await db
    .updateTable('items')
    .set((eb) => ({ position: eb('position', '-', 1) }))
    .where('tenant_id', '=', item.tenant_id)
    .where('stage', '=', item.stage)
    .where('position', '>', item.position)
    .where('id', '<>', item.id)
    .execute();
  const size = await stageSize(trx, item.tenant_id, stage, item.id);
  const target = position === undefined ? size : Math.min(position, size);
  await db
    .updateTable('items')
    .set((eb) => ({ position: eb('position', '+', 1) }))
    .where('tenant_id', '=', item.tenant_id)
    .where('stage', '=', stage)
    .where('position', '>=', target)
    .where('id', '<>', item.id)
    .execute();
  await db.updateTable('items').set({ stage, position: target, updated_at: sql`now()` }).where('id', '=', item.id).execute();
  return target;
}
