import { sql, type Kysely, type RawBuilder } from 'kysely';
import { STAGES, type Stage } from './stages.js';

export interface BoardFilter {
  itemId?: string;
  stage?: Stage;
  includeArchived?: boolean;
}

const STAGE_ORDER = sql.raw(`array[${STAGES.map((stage) => `'${stage}'`).join(',')}]::text[]`);
const iso = (column: RawBuilder<unknown>) => sql`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The pipeline item record, built by PostgreSQL: stage, 0-based position in the stage, notes,
 * `screen_status` — the status of the property's diligence job (D21), read from the view the
 * diligence schema publishes for it — and the joined property with its latest verdict.
 */
const CARD = sql`json_build_object(
  'id', c.id,
  'property_id', c.property_id,
  'stage', c.stage,
  'position', c.rank,
  'archived', c.stage = 'archived',
  'notes', c.notes,
  'screen_status', s.status,
  'diligence_job_id', s.job_id,
  'created_at', ${iso(sql`c.created_at`)},
  'updated_at', ${iso(sql`c.updated_at`)},
  'property', json_build_object(
    'id', p.id, 'market', p.market, 'parcel_key', p.parcel_key, 'apn', p.apn, 'address', p.address,
    'lat', p.lat, 'lon', p.lon, 'acres', p.acres, 'buy_box', c.buy_box, 'verdict', c.verdict, 'score', c.score
  )
)`;

/** The tenant's cards with their rank in their stage, filtered. */
function cards(tenantId: string, filter: BoardFilter) {
  const stageFilter = filter.stage
    ? sql`and stage = ${filter.stage}`
    : filter.includeArchived || filter.itemId
      ? sql``
      : sql`and stage <> 'archived'`;
  return sql`
    select *, (row_number() over (partition by stage order by position, id) - 1)::int as rank
    from pipeline.items
    where tenant_id = ${tenantId} ${stageFilter}`;
}

const JOINS = sql`
  join pipeline.properties p on p.id = c.property_id
  left join diligence.screen_statuses s on s.tenant_id = c.tenant_id and s.property_id = c.property_id`;

/** GET /v1/pipeline's body, `{"items":[...],"total":n}` in board order (D18), as JSON text. */
export async function boardJson(db: Kysely<any>, tenantId: string, filter: BoardFilter): Promise<string> {
  const { rows } = await sql<{ body: string }>`
    select json_build_object(
      'items', coalesce(json_agg(${CARD} order by array_position(${STAGE_ORDER}, c.stage), c.rank), '[]'::json),
      'total', count(*)
    )::text as body
    from (${cards(tenantId, filter)}) c ${JOINS}`.execute(db);
  return rows[0]!.body;
}

/** One card as JSON text, or undefined when the tenant has no such item. */
export async function cardJson(db: Kysely<any>, tenantId: string, itemId: string): Promise<string | undefined> {
  const { rows } = await sql<{ card: string }>`
    select ${CARD}::text as card
    from (${cards(tenantId, { itemId })}) c ${JOINS}
    where c.id = ${itemId}`.execute(db);
  return rows[0]?.card;
}
