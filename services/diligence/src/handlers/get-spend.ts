import type { HandlerContext } from '@connectrpc/connect';
import type { diligencev1 } from '@landscreen/proto';
import { requireCaller } from '@landscreen/rpc';
import type { DiligenceContext } from '../context.js';
import { spendDayStart } from '../spend-day.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * D26: the tenant's recorded provider spend in [day, day+1) UTC — every ledger row, whoever wrote
 * it (step results, reconciles, reveals). Sums are numeric in SQL and decimal strings out.
 */
export function getSpendHandler(context: DiligenceContext) {
  return async (request: diligencev1.GetSpendRequest, call: HandlerContext): Promise<diligencev1.GetSpendResponse> => {
    const { tenantId } = requireCaller(call);
    const day = request.day ?? context.clock.now().toISOString().slice(0, 10);
    const start = spendDayStart(day);
    const end = new Date(start.getTime() + DAY_MS);
    const ledger = context.db
      .selectFrom('cost_ledger')
      .where('tenant_id', '=', tenantId)
      .where('recorded_at', '>=', start)
      .where('recorded_at', '<', end);
    const [totals, providers] = await Promise.all([
      ledger
        .select((eb) => [eb.fn.countAll<number>().as('rows'), eb.cast<string>(eb.cast(eb.fn.coalesce(eb.fn.sum('amount_usd'), eb.lit(0)), 'numeric(20, 4)'), 'text').as('total_usd')])
        .executeTakeFirstOrThrow(),
      ledger
        .select((eb) => ['provider', eb.cast<string>(eb.cast(eb.fn.sum('amount_usd'), 'numeric(20, 4)'), 'text').as('total_usd')])
        .groupBy('provider')
        .orderBy('provider')
        .execute(),
    ]);
    return {
      $typeName: 'landscreen.diligence.v1.GetSpendResponse',
      day,
      totalUsd: totals.total_usd,
      ledgerRows: Number(totals.rows),
      byProvider: providers.map((row) => ({ $typeName: 'landscreen.diligence.v1.ProviderSpend', provider: row.provider, totalUsd: row.total_usd })),
    };
  };
}
