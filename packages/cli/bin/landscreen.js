#!/usr/bin/env -S node --max-semi-space-size=64
// The operator CLI (docs/design.md D37). The TypeScript sources run through tsx's loader, so no build
// step stands between a fresh clone and a working command.
// --max-semi-space-size=64 (MB, Node's default is 16): a request that builds thousands of typed
// messages and their REST records (a board of 5,000 cards) fills the young generation several
// times over; with room for it, the objects die young instead of being copied and promoted, and
// the board answers 15-20 % sooner (docs/decisions.md, docs/benchmarks.md). The Dockerfile and the
// benchmarks start Node with the same flag.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
