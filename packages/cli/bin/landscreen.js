#!/usr/bin/env node
// The operator CLI (docs/design.md D37). The TypeScript sources run through tsx's loader, so no build
// step stands between a fresh clone and a working command.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/main.ts');
process.exitCode = await main(process.argv.slice(2));
