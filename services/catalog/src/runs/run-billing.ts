import { refundCredits } from '../billing/ledger.js';
import type { CatalogTransaction } from '../schema.js';

export interface RefundRequest {
  tenantId: string;
  runId: string;
  /** The ledger row that charged the run. */
  chargeLedgerId: string;
  credits: bigint;
  locations: number;
  at: Date;
}

/** Gives back a stopped run's unprocessed locations, inside the transaction that stops it. */
export type RunRefund = (trx: CatalogTransaction, refund: RefundRequest) => Promise<void>;

/** The credit ledger's refund (services/catalog/src/billing): a row of negative credits naming the run's charge. */
export const ledgerRefund: RunRefund = async (trx, refund) => {
  await refundCredits(
    trx,
    {
      tenantId: refund.tenantId,
      credits: Number(refund.credits),
      operation: 'run',
      refundOf: refund.chargeLedgerId,
      reference: `run:${refund.runId} stopped, ${refund.locations} locations unprocessed`,
    },
    refund.at,
  );
};
