import { randomUUID } from 'node:crypto';
import type { HandlerContext } from '@connectrpc/connect';
import type { diligencev1 } from '@landscreen/proto';
import { issue, notFound, requireCaller, validationError } from '@landscreen/rpc';
import type { DiligenceContext } from '../context.js';
import { isUuid, jsonbText } from '../input.js';
import { providerRequestConflict } from '../errors.js';
import { formatMoney, moneyFromDb, parseMoney, type Money } from '../money.js';
import type { DiligenceTransaction } from '../schema.js';
import { recordCost } from '../store/ledger.js';
import { revealView } from '../views/contact-view.js';

const propertyNotFound = () => notFound('property_not_found', 'No such property.');

/**
 * D28, the legacy enrichment seam (admin and worker only, checked by the gateway): the contact
 * and its cost-ledger row in one transaction. A property is known to this service by its diligence
 * job, which promotion writes with it (D19, D20). Repeated with the same provider request, the
 * reveal answers the first contact and writes nothing (docs/decisions.md).
 */
export function revealContactHandler(context: DiligenceContext) {
  return async (request: diligencev1.RevealContactRequest, call: HandlerContext): Promise<diligencev1.RevealContactResponse> => {
    const { tenantId } = requireCaller(call);
    const cost = parseMoney(request.costUsd || '0', ['body', 'cost_usd']);
    const contact = jsonbText(request.contactJson, ['body', 'contact']);
    if (contact === null || !contact.startsWith('{')) {
      throw validationError([issue.dictType(['body', 'contact'], null)]);
    }
    if (!isUuid(request.propertyId)) throw propertyNotFound();
    const providerRequestId = request.providerRequestId ?? null;
    return context.db.transaction().execute(async (trx) => {
      const now = context.clock.now();
      const job = await trx.selectFrom('jobs').select('id').where('tenant_id', '=', tenantId).where('property_id', '=', request.propertyId).executeTakeFirst();
      if (!job) throw propertyNotFound();
      const ledgerId = cost > 0n ? randomUUID() : null;
      // The contact goes first: a concurrent or repeated reveal of the same provider request stops
      // at its unique index before any second ledger row exists.
      const inserted = await trx
        .insertInto('contacts')
        .values({ tenant_id: tenantId, property_id: request.propertyId, contact, provider: request.provider, provider_request_id: providerRequestId, ledger_id: ledgerId, created_at: now })
        .onConflict((conflict) => conflict.columns(['tenant_id', 'property_id', 'provider', 'provider_request_id']).where('provider_request_id', 'is not', null).doNothing())
        .returningAll()
        .executeTakeFirst();
      if (!inserted) return replay(trx, tenantId, request.propertyId, request.provider, providerRequestId!, cost);
      await context.faults?.('diligence.reveal.after_contact');
      if (ledgerId) {
        await recordCost(trx, { id: ledgerId, tenantId, jobId: job.id, step: null, propertyId: request.propertyId, provider: request.provider, providerRequestId, amount: cost, recordedAt: now });
      }
      return answer(trx, inserted);
    });
  };
}

/** The first reveal of a provider request again; another amount for it is refused, never dropped (409). */
async function replay(trx: DiligenceTransaction, tenantId: string, propertyId: string, provider: string, providerRequestId: string, cost: Money) {
  const first = await trx
    .selectFrom('contacts')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('property_id', '=', propertyId)
    .where('provider', '=', provider)
    .where('provider_request_id', '=', providerRequestId)
    .executeTakeFirstOrThrow();
  const ledger = first.ledger_id ? await trx.selectFrom('cost_ledger').select('amount_usd').where('id', '=', first.ledger_id).executeTakeFirst() : undefined;
  const recorded = moneyFromDb(ledger?.amount_usd ?? null);
  if (recorded !== cost) throw providerRequestConflict({ provider, provider_request_id: providerRequestId, cost_usd: formatMoney(recorded) });
  return answer(trx, first);
}

async function answer(trx: DiligenceTransaction, contact: Parameters<typeof revealView>[0]): Promise<diligencev1.RevealContactResponse> {
  const ledger = contact.ledger_id
    ? await trx.selectFrom('cost_ledger').selectAll().where('id', '=', contact.ledger_id).executeTakeFirst()
    : undefined;
  return revealView(contact, ledger);
}
