#!/usr/bin/env -S node --max-semi-space-size=64
// The operator CLI (docs/design.md D37): the compiled JavaScript in dist/, built by `npm ci` (the
// root `prepare` script), `npm run build` or `npm start` (docs/building.md). The tests run it too,
// after their global setup has built the current sources (test/support/cli-process.ts).
// --max-semi-space-size=64 (MB, Node's default is 16): a request that builds thousands of typed
// messages and their REST records (a board of 5,000 cards) fills the young generation several
// times over; with room for it, the objects die young instead of being copied and promoted, and
// the board answers 15-20 % sooner (docs/decisions.md, docs/benchmarks.md). The Dockerfile and the
// benchmarks start Node with the same flag.
import module from 'node:module';

// Node 22.1+ keeps the compiled code on disk between runs (Node 20 has no such cache).
module.enableCompileCache?.();
const entry = new URL('../dist/bin.js', import.meta.url);
try {
  await import(entry.href);
} catch (error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !String(error.message).includes(entry.pathname)) throw error;
  process.stderr.write('landscreen is not built: run `npm run build` at the repository root (or `npm start`, which builds first)\n');
  process.exitCode = 1;
}
