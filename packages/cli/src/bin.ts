// The `landscreen` command: bin/landscreen.js runs the build of this file (dist/bin.js), in use and
// in the tests alike (test/support/cli-process.ts).
import { main } from './main.js';

process.exitCode = await main(process.argv.slice(2));
