import { sql, type Kysely } from 'kysely';
import { STAGES, type Stage } from './stages.js';

export interface BoardFilter {
  itemId?: string;
  stage?: Stage;
  includeArchived?: boolean;
}

const STAGE_ORDER = sql.raw(`array[${STAGES.map((stage) => `'${stage}'`).join(',')}]::text[]`);

/**
 * The pipeline item record as JSON text: its 0-based `position` in its stage, `screen_status` and
 * `diligence_job_id` — the property's diligence job (D21), read from the view the diligence
 * schema publishes — then the card rendered when the item was written (id, stage, notes,
 * timestamps, the property and its latest verdict; see the items_render_card trigger).
 */
const CARD = sql<string>`'{"position":' || c.rank
  || ',"screen_status":' || coalesce(to_json(s.status)::text, 'null')
  || ',"diligence_job_id":' || coalesce(to_json(s.job_id)::text, 'null')
  || ',' || substr(c.card, 2)`;

/** The tenant's cards with their rank in their stage, filtered, joined to their job status. */
function cards(tenantId: string, filter: BoardFilter) {
  const stageFilter = filter.stage
    ? sql`and stage = ${filter.stage}`
    : filter.includeArchived || filter.itemId
      ? sql``
      : sql`and stage <> 'archived'`;
  return sql`
    (select id, tenant_id, property_id, stage, card,
            (row_number() over (partition by stage order by position, id) - 1)::int as rank
     from pipeline.items
     where tenant_id = ${tenantId} ${stageFilter}) c
    left join diligence.screen_statuses s on s.tenant_id = c.tenant_id and s.property_id = c.property_id`;
}

/** GET /v1/pipeline's body, `{"items":[...],"total":n}` in board order (D18), as JSON text. */
export async function boardJson(db: Kysely<any>, tenantId: string, filter: BoardFilter): Promise<string> {
  const { rows } = await sql<{ body: string }>`
    select '{"items":[' || coalesce(string_agg(${CARD}, ',' order by array_position(${STAGE_ORDER}, c.stage), c.rank), '')
           || '],"total":' || count(*) || '}' as body
    from ${cards(tenantId, filter)}`.execute(db);
  return rows[0]!.body;
}

/** One card as JSON text, or undefined when the tenant has no such item. */
export async function cardJson(db: Kysely<any>, tenantId: string, itemId: string): Promise<string | undefined> {
  const { rows } = await sql<{ card: string }>`select ${CARD} as card from ${cards(tenantId, { itemId })} where c.id = ${itemId}`.execute(db);
  return rows[0]?.card;
}
