/** D34's result object as a reader of the JSON holds it (a run's stored NDJSON line, parsed). */
export interface ResultRecord {
  id: string | null;
  lat: number;
  lon: number;
  values: Record<string, string | number | boolean | null>;
  null_reasons: Record<string, string>;
}

/** The result objects of NDJSON text (blank lines skipped). */
export function parseResultLines(ndjson: string): ResultRecord[] {
  return ndjson
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as ResultRecord);
}
