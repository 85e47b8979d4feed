/** One sample of a Prometheus text exposition: its name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a scrape (comments and blank lines skipped). */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[pair[1]!] = pair[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The samples named `name` whose labels include `labels`. */
export function samplesOf(samples: Sample[], name: string, labels: Record<string, string> = {}): Sample[] {
  return samples.filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value));
}

/** The sum of those samples' values (0 when there are none). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samplesOf(samples, name, labels).reduce((sum, sample) => sum + sample.value, 0);
}

/** GET /metrics over HTTP, parsed. */
export async function scrape(baseUrl: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string | null; samples: Sample[] }> {
  const response = await fetch(`${baseUrl}/metrics`, { headers });
  const text = await response.text();
  return { status: response.status, type: response.headers.get('content-type'), samples: response.ok ? parseExposition(text) : [] };
}
