import http from 'node:http';
import autocannon from 'autocannon';

export interface Throughput {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
  non2xx: number;
}

/** Saturating load: many connections for a fixed time (autocannon). */
export async function throughput(url: string, options: { connections?: number; seconds?: number } = {}): Promise<Throughput> {
  const result = await autocannon({ url, connections: options.connections ?? 64, duration: options.seconds ?? 10, pipelining: 1 });
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export interface Latency {
  p50Us: number;
  p99Us: number;
}

/**
 * Unloaded latency: one request at a time over a kept-alive connection, timed with hrtime. This is
 * what tells the cost of a hop (a difference of p50s), which queueing would hide under load.
 */
export async function latency(url: string, options: { headers?: Record<string, string>; count?: number; warmup?: number } = {}): Promise<Latency> {
  const { headers = {}, count = 3000, warmup = 300 } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const started = process.hrtime.bigint();
      http
        .get(url, { agent, headers }, (response) => {
          response.resume();
          response.on('end', () => resolve(Number(process.hrtime.bigint() - started) / 1000));
        })
        .on('error', reject);
    });
  for (let index = 0; index < warmup; index++) await once();
  const samples: number[] = [];
  for (let index = 0; index < count; index++) samples.push(await once());
  agent.destroy();
  samples.sort((a, b) => a - b);
  return { p50Us: Math.round(percentile(samples, 0.5)), p99Us: Math.round(percentile(samples, 0.99)) };
}

/** The value at `quantile` (0–1) of samples sorted ascending (nearest rank, no interpolation). */
export const percentile = (sorted: number[], quantile: number): number => sorted[Math.min(sorted.length - 1, Math.floor(quantile * sorted.length))]!;
