import type { Kysely } from 'kysely';
import { statements } from '@landscreen/db';

// A keyed billed request's stored answer is now the typed protobuf message
// (FetchBatchResponse, LookupResponse), no longer the REST JSON bytes. Answers stored before this
// build cannot be decoded as the new messages, so they are dropped: a request repeated with one
// of those keys is answered afresh (and charged once more) instead of failing to replay. Keys
// live 24 h (D34), so this forgets at most a day of replays, once.
export const up = (db: Kysely<any>) => statements('delete from catalog.idempotency_keys')(db);

// Nothing to restore: the dropped answers were replays only.
export const down = async () => {};
