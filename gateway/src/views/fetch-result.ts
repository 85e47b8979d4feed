import { fetchResultsJson } from '@landscreen/fetch-results';
import type { catalogv1 } from '@landscreen/proto';

/** A batch's body: {"results": [...], "credits": {"charged","per_location","balance"}}; the results by D34's one writer of result objects. */
export function fetchBatchJson(answer: catalogv1.FetchBatchResponse): string {
  const credits = answer.credits;
  return (
    `{"results":${fetchResultsJson(answer.fields, answer.results)},` +
    `"credits":{"charged":${credits?.charged ?? 0n},"per_location":${credits?.perLocation ?? 0n},"balance":${credits?.balance ?? 0n}}}`
  );
}
