import { Code, type HandlerContext } from '@connectrpc/connect';
import { parseBuyBoxText, specHash } from '@landscreen/buybox-spec';
import { FIELDS } from '@landscreen/field-catalog';
import { type discoveryv1 } from '@landscreen/proto';
import * as discoveryjson from '@landscreen/discovery-json';
import { notFound, parseJsonBytes, requireCaller, serviceError } from '@landscreen/rpc';
import { buyBoxName } from '../buy-box-name.js';
import type { DiscoveryContext } from '../context.js';
import { knownFieldsOf, TYPED_FIELDS } from '../fields.js';
import { buyBoxMessage } from '../messages/buy-box.js';
import { canonicalSpecFrom } from '../spec-input.js';

const COLUMNS = ['id', 'name', 'description', 'spec', 'spec_hash', 'created_at', 'updated_at'] as const;
const missing = (name: string) => notFound('buy_box_not_found', `No buy box named "${name}".`);

export function buyBoxHandlers(context: DiscoveryContext) {
  const db = context.db;
  return {
    async listBuyBoxes(_request: discoveryv1.ListBuyBoxesRequest, call: HandlerContext) {
      const { tenantId } = requireCaller(call);
      const rows = await db.selectFrom('buy_boxes').select(COLUMNS).where('tenant_id', '=', tenantId).orderBy('name').execute();
      return { buyBoxes: rows.map(buyBoxMessage) };
    },

    async createBuyBox(request: discoveryv1.CreateBuyBoxRequest, call: HandlerContext) {
      const { tenantId } = requireCaller(call);
      const name = buyBoxName(request.name, ['body', 'name']);
      const spec = await canonicalSpecFrom(context.db, parseJsonBytes(request.specJson), ['body', 'spec']);
      const now = context.clock.now();
      const row = await db
        .insertInto('buy_boxes')
        .values({ tenant_id: tenantId, name, description: request.description ?? null, spec: JSON.stringify(spec), spec_hash: specHash(spec), created_at: now, updated_at: now })
        .onConflict((conflict) => conflict.columns(['tenant_id', 'name']).doNothing())
        .returning(COLUMNS)
        .executeTakeFirst();
      if (!row) throw serviceError(Code.AlreadyExists, 'buy_box_exists', `A buy box named "${name}" already exists.`);
      return { buyBox: buyBoxMessage(row) };
    },

    async replaceBuyBox(request: discoveryv1.ReplaceBuyBoxRequest, call: HandlerContext) {
      const { tenantId } = requireCaller(call);
      const name = buyBoxName(request.name, ['path', 'name']);
      const spec = await canonicalSpecFrom(context.db, parseJsonBytes(request.specJson), ['body', 'spec']);
      const description = request.clearDescription ? { description: null } : request.description !== undefined ? { description: request.description } : {};
      const row = await db
        .updateTable('buy_boxes')
        .set({ spec: JSON.stringify(spec), spec_hash: specHash(spec), updated_at: context.clock.now(), ...description })
        .where('tenant_id', '=', tenantId)
        .where('name', '=', name)
        .returning(COLUMNS)
        .executeTakeFirst();
      if (!row) throw missing(name);
      return { buyBox: buyBoxMessage(row) };
    },

    async deleteBuyBox(request: discoveryv1.DeleteBuyBoxRequest, call: HandlerContext) {
      const { tenantId } = requireCaller(call);
      const name = buyBoxName(request.name, ['path', 'name']);
      const result = await db.deleteFrom('buy_boxes').where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) throw missing(name);
      return {};
    },

    async parseBuyBox(request: discoveryv1.ParseBuyBoxRequest, call: HandlerContext) {
      requireCaller(call);
      const knownField = await knownFieldsOf(context.db, undefined);
      const fieldNames = [...TYPED_FIELDS, ...FIELDS.map((field) => field.name)];
      const { draft, warnings } = parseBuyBoxText(request.text, { knownField, fieldNames });
      return { draft: discoveryjson.buyBoxSpecMessage(draft), warnings };
    },
  };
}

/** A saved buy box of the caller's tenant, or 404. */
export async function loadBuyBox(context: DiscoveryContext, tenantId: string, requested: string) {
  const name = buyBoxName(requested, ['body', 'buy_box']);
  const row = await context.db.selectFrom('buy_boxes').select(COLUMNS).where('tenant_id', '=', tenantId).where('name', '=', name).executeTakeFirst();
  if (!row) throw missing(name);
  return row;
}
