import { createHash } from 'node:crypto';
import type { CatalogDb, CatalogTransaction } from '../schema.js';
import { idempotencyKeyReused } from './errors.js';

/** How long a key's answer is replayed (D34: 24 h). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The hash a key is bound to: SHA-256 of the operation and the request as the service received it,
 * in a fixed order (the caller builds `request` from the typed message, so whitespace or key order
 * of the client's JSON never makes two equal requests differ).
 */
export function requestHash(operation: string, request: unknown): string {
  return createHash('sha256').update(operation).update('\n').update(JSON.stringify(request)).digest('base64url');
}

export type StoredAnswer = { kind: 'none' } | { kind: 'replay'; response: Uint8Array };

interface KeyRow {
  request_hash: string;
  response: Uint8Array;
}

/** A keyed request's earlier answer within 24 h (replayed), or none; another body is 422. */
export async function storedAnswer(db: CatalogDb, tenantId: string, key: string, hash: string, now: Date): Promise<StoredAnswer> {
  const row = await db
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'response'])
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .where('created_at', '>', new Date(now.getTime() - IDEMPOTENCY_TTL_MS))
    .executeTakeFirst();
  return answerOf(row, hash);
}

function answerOf(row: KeyRow | undefined, hash: string): StoredAnswer {
  if (!row) return { kind: 'none' };
  if (row.request_hash !== hash) throw idempotencyKeyReused();
  return { kind: 'replay', response: row.response };
}

/**
 * Claims the key inside the charge's transaction: a new key (or one older than 24 h) is taken and
 * `claimed` is answered; a live one answers its stored response (or 422 for another body). A
 * concurrent request with the same key blocks on the uncommitted claim until the first commits
 * (then it replays) or rolls back (then it claims), so one key is charged once.
 */
export async function claimKey(
  trx: CatalogTransaction,
  claim: { tenantId: string; key: string; operation: string; hash: string },
  now: Date,
): Promise<StoredAnswer | { kind: 'claimed' }> {
  const cutoff = new Date(now.getTime() - IDEMPOTENCY_TTL_MS);
  const taken = await trx
    .insertInto('idempotency_keys')
    .values({ tenant_id: claim.tenantId, key: claim.key, operation: claim.operation, request_hash: claim.hash, response: Buffer.alloc(0), created_at: now })
    .onConflict((oc) =>
      oc
        .columns(['tenant_id', 'key'])
        .doUpdateSet((eb) => ({
          operation: eb.ref('excluded.operation'),
          request_hash: eb.ref('excluded.request_hash'),
          response: eb.ref('excluded.response'),
          ledger_id: null,
          created_at: eb.ref('excluded.created_at'),
        }))
        .where('idempotency_keys.created_at', '<=', cutoff),
    )
    .returning((eb) => eb.lit(1).as('taken'))
    .executeTakeFirst();
  if (taken) {
    // Keys past their 24 h answer nothing again: a new key of the tenant clears its expired ones.
    await trx.deleteFrom('idempotency_keys').where('tenant_id', '=', claim.tenantId).where('created_at', '<=', cutoff).execute();
    return { kind: 'claimed' };
  }
  const row = await trx
    .selectFrom('idempotency_keys')
    .select(['request_hash', 'response'])
    .where('tenant_id', '=', claim.tenantId)
    .where('key', '=', claim.key)
    .executeTakeFirst();
  return answerOf(row, claim.hash);
}

/** Stores the claimed key's answer (in the same transaction as its charge). */
export async function storeAnswer(trx: CatalogTransaction, tenantId: string, key: string, ledgerId: string | undefined, response: Uint8Array): Promise<void> {
  await trx
    .updateTable('idempotency_keys')
    .set({ response, ledger_id: ledgerId === undefined ? null : Number(ledgerId) })
    .where('tenant_id', '=', tenantId)
    .where('key', '=', key)
    .execute();
}
