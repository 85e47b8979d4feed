import { createHash } from 'node:crypto';
import { sql } from 'kysely';
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
  const { rows } = await sql<KeyRow>`
    select request_hash, response from catalog.idempotency_keys
    where tenant_id = ${tenantId} and key = ${key} and created_at > ${new Date(now.getTime() - IDEMPOTENCY_TTL_MS)}`.execute(db);
  return answerOf(rows[0], hash);
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
  const taken = await sql`
    insert into catalog.idempotency_keys as k (tenant_id, key, operation, request_hash, response, created_at)
    values (${claim.tenantId}, ${claim.key}, ${claim.operation}, ${claim.hash}, ''::bytea, ${now})
    on conflict (tenant_id, key) do update
      set operation = excluded.operation, request_hash = excluded.request_hash, response = excluded.response,
          ledger_id = null, created_at = excluded.created_at
      where k.created_at <= ${cutoff}
    returning 1`.execute(trx);
  if (taken.rows.length > 0) {
    // Keys past their 24 h answer nothing again: a new key of the tenant clears its expired ones.
    await sql`delete from catalog.idempotency_keys where tenant_id = ${claim.tenantId} and created_at <= ${cutoff}`.execute(trx);
    return { kind: 'claimed' };
  }
  const { rows } = await sql<KeyRow>`
    select request_hash, response from catalog.idempotency_keys where tenant_id = ${claim.tenantId} and key = ${claim.key}`.execute(trx);
  return answerOf(rows[0], claim.hash);
}

/** Stores the claimed key's answer (in the same transaction as its charge). */
export async function storeAnswer(trx: CatalogTransaction, tenantId: string, key: string, ledgerId: string | undefined, response: Uint8Array): Promise<void> {
  await sql`
    update catalog.idempotency_keys set response = ${response}, ledger_id = ${ledgerId ?? null}::bigint
    where tenant_id = ${tenantId} and key = ${key}`.execute(trx);
}
