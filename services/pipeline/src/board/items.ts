import { sql, type Kysely } from 'kysely';
import { stageRank, type Stage } from './stages.js';

export interface BoardFilter {
  stage?: Stage;
  includeArchived?: boolean;
}

interface CardRow {
  stage: Stage;
  /** The card rendered when the item was written (see the items_render_card trigger). */
  card: string;
  status: string | null;
  job_id: string | null;
}

/**
 * The pipeline item record as JSON text: its 0-based `position` in its stage, `screen_status` and
 * `diligence_job_id` — the property's diligence job (D21), from the view the diligence schema
 * publishes — then the stored card (id, stage, notes, timestamps, the property and its latest
 * verdict). Only these three parts change without the item being written.
 */
function cardJsonOf(row: Omit<CardRow, 'stage'>, rank: number): string {
  return `{"position":${rank},"screen_status":${JSON.stringify(row.status)},"diligence_job_id":${JSON.stringify(row.job_id)},${row.card.slice(1)}`;
}

/**
 * GET /v1/pipeline's body, `{"items":[...],"total":n}` in board order (D18), as JSON text. The
 * stored cards come in index order (stage_rank, position, id) and the tenant's job statuses in a
 * second query run alongside; ranks within a stage are counted as the cards go by. Neither query
 * hashes or sorts the cards themselves.
 */
export async function boardJson(db: Kysely<any>, tenantId: string, filter: BoardFilter): Promise<string> {
  const stageFilter = filter.stage ? sql`and stage_rank = ${stageRank(filter.stage)}` : filter.includeArchived ? sql`` : sql`and stage_rank < ${stageRank('archived')}`;
  const [{ rows }, { rows: jobs }] = await Promise.all([
    sql<{ stage: Stage; property_id: string; card: string }>`
      select stage, property_id, card from pipeline.items
      where tenant_id = ${tenantId} ${stageFilter}
      order by stage_rank, position, id`.execute(db),
    sql<{ property_id: string; status: string; job_id: string }>`
      select property_id, status, job_id from diligence.screen_statuses where tenant_id = ${tenantId}`.execute(db),
  ]);
  const jobOf = new Map(jobs.map((job) => [job.property_id, job]));
  const cards = new Array<string>(rows.length);
  let stage: Stage | undefined;
  let rank = 0;
  for (let index = 0; index < rows.length; index++) {
    const row = rows[index]!;
    rank = row.stage === stage ? rank + 1 : 0;
    stage = row.stage;
    const job = jobOf.get(row.property_id);
    cards[index] = cardJsonOf({ card: row.card, status: job?.status ?? null, job_id: job?.job_id ?? null }, rank);
  }
  return `{"items":[${cards.join(',')}],"total":${rows.length}}`;
}

/**
 * One card as JSON text, found by its id or by its property's (a property has at most one card),
 * or undefined when the tenant has no such card. Its job status is looked up on the job's unique
 * (tenant, property) key.
 */
export async function cardJson(db: Kysely<any>, tenantId: string, key: { itemId: string } | { propertyId: string }): Promise<string | undefined> {
  const { rows } = await sql<CardRow & { rank: number }>`
    select i.stage, i.card, s.status, s.job_id,
           (select count(*)::int from pipeline.items o
            where o.tenant_id = i.tenant_id and o.stage_rank = i.stage_rank and (o.position, o.id) < (i.position, i.id)) as rank
    from pipeline.items i
    left join diligence.screen_statuses s on s.tenant_id = i.tenant_id and s.property_id = i.property_id
    where i.tenant_id = ${tenantId} and ${'itemId' in key ? sql`i.id = ${key.itemId}` : sql`i.property_id = ${key.propertyId}`}`.execute(db);
  return rows[0] ? cardJsonOf(rows[0], rows[0].rank) : undefined;
}
