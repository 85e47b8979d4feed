import { TenantHeaders } from '../schemas/common.js';
import { AddToPipelineBody, ItemPath, ListPipelineQuery, PatchPipelineBody } from '../schemas/board.js';
import { PipelineBoard, PipelineItem } from '@landscreen/api-schemas';
import { errors, json, SIGNED_IN } from './responses.js';
import { READERS, WRITERS } from './roles.js';
import { asCaller } from './call.js';
import { boardJson, cardJson } from '../views/card.js';
import { BOARD_COLUMNS, boardFeature } from '../views/board-export.js';
import { checkExportSize, EXPORT_MEDIA_TYPES, exportAnswer, onePage } from './export-answer.js';
import type { RouteDef } from './route.js';

export const boardRoutes: RouteDef[] = [
  {
    method: 'GET',
    path: '/v1/pipeline',
    operationId: 'listPipeline',
    summary: 'The pipeline board',
    description:
      'Items joined to their properties, ordered by stage then position; archived hidden unless archived=true. `format=geojson|kml|csv|shapefile|gpkg` answers the same cards as a file (D40).',
    tag: 'pipeline',
    security: 'session',
    roles: READERS,
    request: { headers: TenantHeaders, query: ListPipelineQuery },
    responses: {
      200: { ...json('The board: `{"items": [...], "total"}`; with `format`, the board as a file: a row per card at its parcel\'s point (D40).', PipelineBoard), alsoFiles: EXPORT_MEDIA_TYPES },
      ...errors(SIGNED_IN, { 413: 'export_too_large: a Shapefile holds at most 100,000 cards; or payload_too_large.' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { stage, archived, format } = request.query;
      const answer = await deps.clients.pipeline.listBoard({ stage: stage ?? undefined, archived: archived ?? false }, asCaller(caller, raw.id));
      if (format === undefined) return { status: 200, body: boardJson(answer.cards) };
      checkExportSize(format, answer.cards.length);
      return exportAnswer(format, { name: 'pipeline', columns: BOARD_COLUMNS, pages: onePage(answer.cards.map(boardFeature)) }, 'pipeline');
    },
  },
  {
    method: 'POST',
    path: '/v1/pipeline',
    operationId: 'addToPipeline',
    summary: 'Add a property to the board',
    description: 'Idempotent per property: a second add reuses the existing item.',
    tag: 'pipeline',
    security: 'session',
    roles: WRITERS,
    request: { headers: TenantHeaders, body: AddToPipelineBody, bodyRequired: true },
    responses: {
      202: json('The pipeline item with stage and screen_status.', PipelineItem),
      ...errors([...SIGNED_IN, 404, 409], { 404: 'property_not_found, market_not_found or parcel_not_found.', 409: 'market_not_loaded.' }),
    },
    handler: async ({ request, caller, raw, deps }) => {
      const { property_id: propertyId, market, parcel_key: parcelKey, notes } = request.body;
      const answer = await deps.clients.pipeline.addToBoard(
        { propertyId, market, parcelKey, notes: notes ?? undefined },
        asCaller(caller, raw.id),
      );
      return { status: 202, body: cardJson(answer.card!) };
    },
  },
  {
    method: 'PATCH',
    path: '/v1/pipeline/{item_id}',
    operationId: 'updatePipelineItem',
    summary: 'Move, archive, reorder or annotate a card',
    description: 'Follows the spec\'s stage state table; an explicit stage wins over archived.',
    tag: 'pipeline',
    security: 'session',
    roles: WRITERS,
    request: { headers: TenantHeaders, path: ItemPath, body: PatchPipelineBody, bodyRequired: true },
    responses: { 200: json('The updated item.', PipelineItem), ...errors([...SIGNED_IN, 404], { 404: 'pipeline_item_not_found: no such item in the caller\'s organization.' }) },
    handler: async ({ request, caller, raw, deps }) => {
      const { stage, notes, archived, position } = request.body;
      const answer = await deps.clients.pipeline.updateItem(
        { itemId: request.path.item_id, stage, notes: notes ?? undefined, clearNotes: notes === null, archived, position },
        asCaller(caller, raw.id),
      );
      return { status: 200, body: cardJson(answer.card!) };
    },
  },
];
