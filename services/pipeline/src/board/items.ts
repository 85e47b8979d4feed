import { sql, type Kysely } from 'kysely';
import { jobsOfProperties, type PropertyJob } from '@landscreen/diligence-service/data-access';
import { STAGES, type Stage } from './stages.js';

/** A card as the board reads it: the item, its property and its latest buy-box verdict. */
export interface BoardRow {
  id: string;
  property_id: string;
  stage: Stage;
  position: number;
  notes: string | null;
  created_at: Date;
  updated_at: Date;
  market: string;
  market_id: string;
  parcel_key: string;
  vintage_id: string;
  apn: string | null;
  address: string | null;
  lat: number | null;
  lon: number | null;
  acres: number | null;
  buy_box: string | null;
  verdict: string | null;
  score: number | null;
}

export interface BoardFilter {
  itemId?: string;
  stage?: Stage;
  includeArchived?: boolean;
}

const STAGE_ORDER = sql.raw(`array[${STAGES.map((stage) => `'${stage}'`).join(',')}]::text[]`);

/** The tenant's cards in board order (D18: stage, then position), joined to their properties. */
export async function boardRows(db: Kysely<any>, tenantId: string, filter: BoardFilter = {}): Promise<BoardRow[]> {
  const { rows } = await sql<BoardRow>`
    select i.id, i.property_id, i.stage, i.position, i.notes, i.created_at, i.updated_at,
           p.market, p.market_id, p.parcel_key, p.vintage_id, p.apn, p.address, p.lat, p.lon, p.acres,
           m.buy_box, m.verdict, m.score
    from pipeline.items i
    join pipeline.properties p on p.id = i.property_id
    left join lateral (
      select buy_box, verdict, score from pipeline.buy_box_matches
      where property_id = i.property_id order by created_at desc, id limit 1
    ) m on true
    where i.tenant_id = ${tenantId}
      ${filter.itemId ? sql`and i.id = ${filter.itemId}` : sql``}
      ${filter.stage ? sql`and i.stage = ${filter.stage}` : filter.includeArchived || filter.itemId ? sql`` : sql`and i.stage <> 'archived'`}
    order by array_position(${STAGE_ORDER}, i.stage), i.position, i.id`.execute(db);
  return rows;
}

/**
 * The pipeline item record: stage, position, notes and `screen_status` — the status of the
 * property's diligence job (D21) — with its joined property.
 */
export function itemRecord(row: BoardRow, job: PropertyJob | undefined) {
  return {
    id: row.id,
    property_id: row.property_id,
    stage: row.stage,
    position: row.position,
    archived: row.stage === 'archived',
    notes: row.notes,
    screen_status: job?.status ?? null,
    diligence_job_id: job?.id ?? null,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    property: {
      id: row.property_id,
      market: row.market,
      market_id: row.market_id,
      parcel_key: row.parcel_key,
      vintage_id: row.vintage_id,
      apn: row.apn,
      address: row.address,
      lat: row.lat,
      lon: row.lon,
      acres: row.acres,
      buy_box: row.buy_box,
      verdict: row.verdict,
      score: row.score,
    },
  };
}

/** Board rows as item records, with each property's job status read from the diligence schema. */
export async function itemRecords(db: Kysely<any>, tenantId: string, rows: BoardRow[]) {
  const jobs = await jobsOfProperties(db, tenantId, rows.map((row) => row.property_id));
  return rows.map((row) => itemRecord(row, jobs.get(row.property_id)));
}
