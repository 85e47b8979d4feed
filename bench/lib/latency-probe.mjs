// A latency probe in a process of its own, so that what the benchmark itself does (building a
// 30 MB body, reading a PDF) cannot delay its timers: every `interval` ms it sends one GET to
// `url` over a kept-alive connection (never two at once: a stalled server shows as one long
// answer, not as a queue of short ones), until a line arrives on stdin; then it prints the
// latencies (ms) as one JSON array on stdout and exits.
//   node bench/lib/latency-probe.mjs <url> [interval ms] [header=value ...]
import http from 'node:http';
import { performance } from 'node:perf_hooks';

const [url, intervalText = '20', ...headerArgs] = process.argv.slice(2);
const interval = Number(intervalText);
const headers = Object.fromEntries(headerArgs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const samples = [];
let stopping = false;

const once = () =>
  new Promise((resolve) => {
    const started = performance.now();
    const request = http.get(url, { agent, headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode === 200 ? performance.now() - started : -1));
    });
    request.on('error', () => resolve(-1));
  });

process.stdin.once('data', () => {
  stopping = true;
});
// The benchmark died: nobody will read the samples.
process.stdin.once('end', () => process.exit(0));

while (!stopping) {
  const started = performance.now();
  samples.push(await once());
  const rest = interval - (performance.now() - started);
  if (rest > 0) await new Promise((resolve) => setTimeout(resolve, rest));
}
agent.destroy();
process.stdout.write(`${JSON.stringify(samples.map((ms) => Math.round(ms * 100) / 100))}\n`);
process.exit(0);
