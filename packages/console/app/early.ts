// Requests the map's first view needs, sent as the page starts (beside GET /v1/me) rather than
// once the view has been built: the buy boxes and, for the buy box last shown, the ranking's first
// page. A view takes its answer once; an unused or failed one is simply dropped.

const asked = new Map<string, Promise<unknown>>();

export function askEarly(key: string, ask: () => Promise<unknown>): void {
  const answer = ask();
  // Its failure is the taker's to report (or nobody's, if nobody takes it).
  answer.catch(() => undefined);
  asked.set(key, answer);
}

/** The answer asked early under `key`, once; undefined when none was asked. */
export function takeEarly<T>(key: string): Promise<T> | undefined {
  const answer = asked.get(key) as Promise<T> | undefined;
  asked.delete(key);
  return answer;
}
