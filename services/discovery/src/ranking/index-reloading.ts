import { Code } from '@connectrpc/connect';
import { serviceError } from '@landscreen/rpc';

/**
 * 503 `index_reloading` with Retry-After: a column of the vintage's local index file proved
 * damaged while a request read it. The file is deleted and the index dropped, so the retry reads
 * it again from PostgreSQL; this request has nothing right to answer with meanwhile.
 */
export function indexReloading() {
  return serviceError(Code.Unavailable, 'index_reloading', 'The market\'s ranking index is being read again; retry shortly.', {
    retry_after_seconds: 1,
  });
}
