import type { pipelinev1 } from '@landscreen/proto';
import { absentIfNull } from '@landscreen/rpc';
import { stageRank, type Stage } from './stages.js';
import type { PipelineDb } from '../schema.js';

export interface BoardFilter {
  stage?: Stage;
  includeArchived?: boolean;
}

/**
 * The card as the items_render_card trigger stored it when the item was written: a positional
 * JSON array (migration 20261126T120000_positional_cards; the two change together).
 */
type StoredCard = [
  id: string,
  propertyId: string,
  stage: Stage,
  notes: string | null,
  createdAt: string,
  updatedAt: string,
  market: string,
  parcelKey: string,
  apn: string | null,
  address: string | null,
  lat: number | null,
  lon: number | null,
  acres: number | null,
  buyBox: string | null,
  verdict: string | null,
  score: number | null,
];

/** The diligence job of a card's property (D21), from the view the diligence schema publishes. */
interface CardJob {
  status: string | null;
  job_id: string | null;
}

/**
 * A Card message from the card stored when the item was written (id, stage, notes, times, the
 * property and its latest verdict), its 0-based rank in its stage and its job: the three parts
 * that change without the item being written. One plain object per card, no reflection: the
 * board builds thousands of them.
 */
function cardOf(card: StoredCard, rank: number, job: CardJob | undefined): pipelinev1.Card {
  const [id, propertyId, stage, notes, createdAt, updatedAt, market, parcelKey, apn, address, lat, lon, acres, buyBox, verdict, score] = card;
  return {
    $typeName: 'landscreen.pipeline.v1.Card',
    id,
    propertyId,
    stage,
    archived: stage === 'archived',
    position: rank,
    notes: absentIfNull(notes),
    screenStatus: absentIfNull(job?.status ?? null),
    diligenceJobId: absentIfNull(job?.job_id ?? null),
    createdAt,
    updatedAt,
    property: {
      $typeName: 'landscreen.pipeline.v1.CardProperty',
      id: propertyId,
      market,
      parcelKey,
      apn: absentIfNull(apn),
      address: absentIfNull(address),
      lat: absentIfNull(lat),
      lon: absentIfNull(lon),
      acres: absentIfNull(acres),
      buyBox: absentIfNull(buyBox),
      verdict: absentIfNull(verdict),
      score: absentIfNull(score),
    },
  };
}

/**
 * GET /v1/pipeline's cards in board order (D18). The stored cards come in index order
 * (stage_rank, position, id) and the tenant's job statuses in a second query run alongside; ranks
 * within a stage are counted as the cards go by. Neither query hashes or sorts the cards
 * themselves, and a card is one text column, its stage and property among its elements: reading
 * the card's fields as sixteen columns instead costs node-postgres twice the time on a board of
 * 5,000, and each extra column a little more (docs/benchmarks.md).
 */
export async function boardCards(db: PipelineDb, tenantId: string, filter: BoardFilter): Promise<pipelinev1.Card[]> {
  let items = db.selectFrom('items').select('card').where('tenant_id', '=', tenantId);
  if (filter.stage) items = items.where('stage_rank', '=', stageRank(filter.stage));
  else if (!filter.includeArchived) items = items.where('stage_rank', '<', stageRank('archived'));
  const [rows, jobs] = await Promise.all([
    items.orderBy('stage_rank').orderBy('position').orderBy('id').execute(),
    db.selectFrom('diligence.screen_statuses').select(['property_id', 'status', 'job_id']).where('tenant_id', '=', tenantId).execute(),
  ]);
  const jobOf = new Map<string, CardJob>();
  for (const job of jobs) jobOf.set(job.property_id, job);
  const cards = new Array<pipelinev1.Card>(rows.length);
  let stage: Stage | undefined;
  let rank = 0;
  for (let index = 0; index < rows.length; index++) {
    const card = JSON.parse(rows[index]!.card) as StoredCard;
    rank = card[2] === stage ? rank + 1 : 0;
    stage = card[2];
    cards[index] = cardOf(card, rank, jobOf.get(card[1]));
  }
  return cards;
}

/**
 * One card, found by its id or by its property's (a property has at most one card), or undefined
 * when the tenant has no such card. Its job status is looked up on the job's unique
 * (tenant, property) key.
 */
export async function oneCard(db: PipelineDb, tenantId: string, key: { itemId: string } | { propertyId: string }): Promise<pipelinev1.Card | undefined> {
  const row = await db
    .selectFrom('items as i')
    .leftJoin('diligence.screen_statuses as s', (join) => join.onRef('s.tenant_id', '=', 'i.tenant_id').onRef('s.property_id', '=', 'i.property_id'))
    .select((eb) => [
      'i.card',
      's.status',
      's.job_id',
      // The card's rank in its stage: the cards before it in board order.
      eb
        .selectFrom('items as o')
        .select((eb) => eb.cast<number>(eb.fn.countAll(), 'integer').as('rank'))
        .whereRef('o.tenant_id', '=', 'i.tenant_id')
        .whereRef('o.stage_rank', '=', 'i.stage_rank')
        .where((eb) => eb(eb.refTuple('o.position', 'o.id'), '<', eb.refTuple('i.position', 'i.id')))
        .$asScalar()
        .as('rank'),
    ])
    .where('i.tenant_id', '=', tenantId)
    .where('itemId' in key ? 'i.id' : 'i.property_id', '=', 'itemId' in key ? key.itemId : key.propertyId)
    .executeTakeFirst();
  return row ? cardOf(JSON.parse(row.card) as StoredCard, row.rank, row) : undefined;
}
