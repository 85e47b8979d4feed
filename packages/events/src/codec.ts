/**
 * Event data travels as JSON on both buses, so a handler sees the same shapes whichever bus
 * runs (no Dates, Maps or class instances survive). `undefined` becomes `null`.
 */
export function encodeData(data: unknown): string {
  const text = JSON.stringify(data ?? null) as string | undefined;
  // JSON.stringify answers undefined for a bare function or symbol.
  if (text === undefined) throw new TypeError('event data is not JSON-serialisable');
  return text;
}

export function decodeData(text: string): unknown {
  return JSON.parse(text) as unknown;
}
